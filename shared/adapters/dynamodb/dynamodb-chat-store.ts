/**
 * ChatStore on the data table: one partition per session (pk `CHATS#<sessionId>`, sk `CHAT#<chatId>`), each chat an
 * item with a `version`. A change reads the chat, applies it through applyChatChange and writes it back with a Put
 * conditional on the version it read (optimistic concurrency: a concurrent change makes it read again), in one
 * transaction with the check that the session exists, so nothing is written for an unknown or deleted session.
 * The list reads gsi1 (gsi1pk `CHATS#<sessionId>`, gsi1sk chatOrderKey), whose ascending order is the list order;
 * like every GSI read it is eventually consistent, while findById reads the item strongly consistent.
 */
import { isDeepStrictEqual } from 'node:util';
import { DeleteCommand, type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  applyChatChange,
  type ChatChange,
  ChatLastMessage,
  type ChatRecord,
  newChat,
} from '#shared/domain/chat.js';
import type { Page } from '#shared/domain/common.js';
import { ConflictError, NotFoundError } from '#shared/errors/app-error.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import {
  cancellationCodes,
  deletePartition,
  failedAt,
  getItem,
  guard,
  type Item,
  queryOffset,
  sessionExistsCheck,
} from './dynamodb-support.js';

const STORE = 'Data store';
/** Rounds of read-then-write while concurrent changes of the same chat keep winning. */
const MAX_ATTEMPTS = 5;
/** Chats of one call written at once: a history sync reports hundreds, each a read and a transaction. */
const PARALLEL_CHATS = 8;
/** Timestamps (epoch seconds) are clamped to ±ORDER_SPAN, which leaves MAX_SAFE_INTEGER room for the inversion. */
const ORDER_SPAN = 10 ** 15 - 1;
const ORDER_DIGITS = String(2 * ORDER_SPAN).length;

const partition = (sessionId: string) => `CHATS#${sessionId}`;
const chatKey = (sessionId: string, chatId: string) => ({ pk: partition(sessionId), sk: `CHAT#${chatId}` });

/**
 * gsi1sk of a chat: ascending, it is timestamp descending (the inverted timestamp, zero-padded to a fixed width),
 * chats without a timestamp after all others (`1` sorts after `0`), then the chat id in byte order.
 */
export function chatOrderKey(chat: ChatRecord): string {
  if (chat.timestamp === null) return `1#${chat.id}`;
  const timestamp = Math.min(Math.max(Math.floor(chat.timestamp), -ORDER_SPAN), ORDER_SPAN);
  return `0${String(ORDER_SPAN - timestamp).padStart(ORDER_DIGITS, '0')}#${chat.id}`;
}

const numberOr = <T>(value: unknown, fallback: T): number | T =>
  typeof value === 'number' ? value : fallback;

/** A stored item as a chat; attributes missing or of the wrong type read as the new chat's defaults. */
function toChat(item: Item): ChatRecord {
  const chatId = String(item.sk).slice('CHAT#'.length);
  const lastMessage = ChatLastMessage.safeParse(item.lastMessage);
  return {
    id: chatId,
    name: typeof item.name === 'string' ? item.name : null,
    unreadCount: numberOr(item.unreadCount, 0),
    markedUnread: item.markedUnread === true,
    timestamp: numberOr(item.timestamp, null),
    lastMessage: lastMessage.success ? lastMessage.data : null,
    archived: item.archived === true,
    pinnedAt: numberOr(item.pinnedAt, null),
    muteUntil: numberOr(item.muteUntil, null),
  };
}

function toItem(sessionId: string, chat: ChatRecord, version: number): Item {
  return {
    ...chatKey(sessionId, chat.id),
    gsi1pk: partition(sessionId),
    gsi1sk: chatOrderKey(chat),
    version,
    name: chat.name,
    unreadCount: chat.unreadCount,
    markedUnread: chat.markedUnread,
    timestamp: chat.timestamp,
    lastMessage: chat.lastMessage,
    archived: chat.archived,
    pinnedAt: chat.pinnedAt,
    muteUntil: chat.muteUntil,
  };
}

/** The changes of one call by chat, each chat's in the order given (changes of different chats never interact). */
function byChat(changes: readonly ChatChange[]): ChatChange[][] {
  const groups = new Map<string, ChatChange[]>();
  for (const change of changes) {
    const group = groups.get(change.id);
    if (group) group.push(change);
    else groups.set(change.id, [change]);
  }
  return [...groups.values()];
}

/** ChatStore on the data table. */
export class DynamoDbChatStore implements ChatStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  apply(sessionId: string, changes: readonly ChatChange[]): Promise<void> {
    return guard(STORE, async () => {
      const pending = byChat(changes);
      const failures: unknown[] = [];
      // A few workers take the chats in turn; after a failure they take no more, and the call fails with the first.
      const worker = async () => {
        for (let group = pending.shift(); group && failures.length === 0; group = pending.shift()) {
          await this.applyToChat(sessionId, group).catch((error: unknown) => {
            failures.push(error);
          });
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_CHATS, pending.length) }, worker));
      if (failures.length > 0) throw failures[0];
    });
  }

  findById(sessionId: string, chatId: string): Promise<ChatRecord | null> {
    return guard(STORE, async () => {
      const item = await getItem(this.doc, this.table, chatKey(sessionId, chatId));
      return item ? toChat(item) : null;
    });
  }

  list(sessionId: string, page: Page): Promise<ChatRecord[]> {
    return guard(STORE, async () => {
      const input = {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': partition(sessionId) },
        Limit: page.offset + page.limit,
      };
      return (await queryOffset(this.doc, input, page)).map(toChat);
    });
  }

  delete(sessionId: string, chatId: string): Promise<boolean> {
    return guard(STORE, async () => {
      const deleted = await this.doc.send(
        new DeleteCommand({
          TableName: this.table,
          Key: chatKey(sessionId, chatId),
          ReturnValues: 'ALL_OLD',
        }),
      );
      return deleted.Attributes !== undefined;
    });
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(
      STORE,
      async () => (await deletePartition(this.doc, this.table, partition(sessionId))).length,
    );
  }

  /** Applies one chat's changes in order: read, apply, write conditional on the version read; again on a race. */
  private async applyToChat(sessionId: string, changes: readonly ChatChange[]): Promise<void> {
    const chatId = (changes[0] as ChatChange).id;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const item = await getItem(this.doc, this.table, chatKey(sessionId, chatId));
      const current = item ? toChat(item) : newChat(chatId);
      const next = changes.reduce(applyChatChange, current);
      // A repeated report changes nothing: no write (a stored chat's session existed when it was written).
      if (item && isDeepStrictEqual(next, current)) return;
      const version = numberOr(item?.version, 0);
      const put = {
        Put: {
          TableName: this.table,
          Item: toItem(sessionId, next, version + 1),
          ...(item
            ? {
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': version },
              }
            : { ConditionExpression: 'attribute_not_exists(pk)' }),
        },
      };
      try {
        await this.doc.send(
          new TransactWriteCommand({ TransactItems: [sessionExistsCheck(this.table, sessionId), put] }),
        );
        return;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (failedAt(codes, 0)) throw new NotFoundError(`Session ${sessionId} not found`, { cause: error });
        // Another change of this chat wrote first (its version moved, or its transaction held the item).
        const raced = failedAt(codes, 1) || codes?.includes('TransactionConflict') === true;
        if (!raced) throw error;
      }
    }
    throw new ConflictError('CONFLICT', `${STORE}: the chat keeps changing; retry`, { retryable: true });
  }
}
