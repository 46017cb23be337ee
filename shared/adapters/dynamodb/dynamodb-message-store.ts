/**
 * Messages in DynamoDB. A message and its network-id lock item are written in one transaction (with a check
 * that the session exists), so (sessionId, waMessageId) stays unique. History pages query gsi1 (per session) or
 * gsi2 (per session and chat) newest first; `from` is a filter expression because it must also match `author`.
 * Search reads the same indexes, a bounded number of items (dynamodb-message-search.ts); a session's or a chat's
 * messages are deleted by dynamodb-message-deletes.ts.
 */
import {
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Page } from '#shared/domain/common.js';
import { isStatusAdvance, type Message, type MessageStatus } from '#shared/domain/message.js';
import type { MessageChange } from '#shared/domain/message-changes.js';
import { ConflictError, NotFoundError } from '#shared/errors/app-error.js';
import type { OutboxEntry, OutboxEntryFor, OutboxEntryOf } from '#shared/ports/event-outbox.port.js';
import type {
  ContentChange,
  MessageFilter,
  MessageScanPage,
  MessageSearch,
  MessageSearchPage,
  MessageStore,
  OutboxEntryOfChange,
  StatusChange,
} from '#shared/ports/message-store.port.js';
import { outboxItem, outboxTaken } from './dynamodb-event-outbox.js';
import { applyContentChange } from './dynamodb-message-changes.js';
import { deleteMessages } from './dynamodb-message-deletes.js';
import {
  historyQuery,
  messageKey,
  messageOrderKey,
  scanMessages,
  toMessage,
  waKey,
} from './dynamodb-message-items.js';
import {
  DEFAULT_SEARCH_SCAN_LIMIT,
  searchMessageItems,
  searchTextAttribute,
} from './dynamodb-message-search.js';
import { countedSafely, countFailed, countStored } from './dynamodb-message-stats.js';
import {
  cancellationCodes,
  copy,
  failedAt,
  getItem,
  guard,
  isConditionFailed,
  putNew,
  queryPage,
} from './dynamodb-support.js';

const STORE = 'Data store';
const MAX_ATTEMPTS = 10;

/** MessageStore on the data table (the same table as the sessions, whose existence inserts check). */
export class DynamoDbMessageStore implements MessageStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
    /** Items a search reads at most (SEARCH_SCAN_LIMIT). */
    private readonly searchScanLimit = DEFAULT_SEARCH_SCAN_LIMIT,
    /** Told of a statistics counter that could not be written (the message itself was stored). */
    private readonly onCountFailure: (error: unknown) => void = () => undefined,
  ) {}

  insert(message: Message, outbox?: OutboxEntryFor): Promise<boolean> {
    return guard(STORE, async () => {
      const order = messageOrderKey(message);
      const item = {
        ...copy(message),
        ...messageKey(message.id),
        ...searchTextAttribute(message),
        gsi1pk: `MSG#${message.sessionId}`,
        gsi1sk: order,
        gsi2pk: `MSGCHAT#${message.sessionId}#${message.chatId}`,
        gsi2sk: order,
      };
      const sessionCheck = {
        ConditionCheck: {
          TableName: this.table,
          Key: { pk: 'SESSIONS', sk: `SESSION#${message.sessionId}` },
          ConditionExpression: 'attribute_exists(pk)',
        },
      };
      const put = putNew(this.table, item);
      const lock =
        message.waMessageId === null
          ? []
          : [putNew(this.table, { ...waKey(message.sessionId, message.waMessageId), messageId: message.id })];
      const event = outbox ? [putNew(this.table, outboxItem(outbox(message)))] : [];
      try {
        await this.doc.send(
          new TransactWriteCommand({ TransactItems: [sessionCheck, put, ...lock, ...event] }),
        );
      } catch (error) {
        const codes = cancellationCodes(error);
        if (failedAt(codes, 0))
          throw new NotFoundError(`Session ${message.sessionId} not found`, { cause: error });
        // A re-fired network id is the expected duplicate: ignore it before judging the row id.
        if (lock.length > 0 && failedAt(codes, 2)) return false;
        if (failedAt(codes, 1)) throw new ConflictError('CONFLICT', 'A message with this id already exists');
        if (event.length > 0 && failedAt(codes, 2 + lock.length)) throw outboxTaken();
        throw error;
      }
      await countedSafely(countStored(this.doc, this.table, message), this.onCountFailure);
      return true;
    });
  }

  findById(sessionId: string, id: string): Promise<Message | null> {
    return guard(STORE, async () => {
      const message = await this.read(id);
      return message?.sessionId === sessionId ? message : null;
    });
  }

  findByWaMessageId(sessionId: string, waMessageId: string): Promise<Message | null> {
    return guard(STORE, () => this.readByWa(sessionId, waMessageId));
  }

  hasChat(sessionId: string, chatId: string): Promise<boolean> {
    return guard(STORE, async () => {
      const found = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': `MSGCHAT#${sessionId}#${chatId}` },
          ProjectionExpression: 'pk',
          Limit: 1,
        }),
      );
      return (found.Items?.length ?? 0) > 0;
    });
  }

  list(filter: MessageFilter, page: Page): Promise<{ messages: Message[]; total: number }> {
    return guard(STORE, async () => {
      const input = historyQuery(this.table, filter);
      const { items, total } = await queryPage(this.doc, input, page);
      return { messages: items.map(toMessage), total };
    });
  }

  scan(after: string | null, limit: number): Promise<MessageScanPage> {
    return guard(STORE, () => scanMessages(this.doc, this.table, after, limit));
  }

  search(search: MessageSearch, page: Page): Promise<MessageSearchPage> {
    return guard(STORE, () => searchMessageItems(this.doc, this.table, search, page, this.searchScanLimit));
  }

  advanceStatus(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp?: number,
    outbox?: OutboxEntryOf,
  ): Promise<StatusChange> {
    return guard(STORE, async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const current = await this.readByWa(sessionId, waMessageId);
        if (!current) return { outcome: 'not_found' };
        if (!isStatusAdvance(current.status, status)) {
          let change: StatusChange = { outcome: 'unchanged', message: current };
          if (timestamp !== undefined && current.timestamp === null) {
            const timed = await this.fillTimestamp(current, timestamp);
            if (!timed) continue;
            change = { outcome: 'unchanged', message: timed };
          }
          // Nothing else is written here, so the entry (if any) is stored on its own.
          const entry = outbox?.(change);
          if (entry) await this.putOutboxEntry(entry);
          return change;
        }
        const written = await this.writeStatus(current, status, timestamp, outbox);
        if (written) return { outcome: 'updated', message: written };
      }
      throw new ConflictError('CONFLICT', 'The message status changed concurrently; retry');
    });
  }

  /**
   * Writes the status (and a missing timestamp) only where the row still has the status it was judged against,
   * with the outbox entry in the same transaction; null when a concurrent ack got there first (the caller re-reads).
   */
  private async writeStatus(
    current: Message,
    status: MessageStatus,
    timestamp: number | undefined,
    outbox: OutboxEntryOf | undefined,
  ): Promise<Message | null> {
    const fill = timestamp !== undefined && current.timestamp === null;
    const next: Message = { ...current, status, timestamp: fill ? timestamp : current.timestamp };
    const update = {
      TableName: this.table,
      Key: messageKey(current.id),
      ConditionExpression: '#status = :current',
      UpdateExpression: fill
        ? 'SET #status = :next, #ts = :ts, gsi1sk = :order, gsi2sk = :order'
        : 'SET #status = :next',
      ExpressionAttributeNames: { '#status': 'status', ...(fill ? { '#ts': 'timestamp' } : {}) },
      ExpressionAttributeValues: {
        ':current': current.status,
        ':next': status,
        ...(fill ? { ':ts': timestamp, ':order': messageOrderKey(next) } : {}),
      },
    };
    const entry = outbox?.({ outcome: 'updated', message: next });
    const written = await this.writeStatusItem(update, entry, next);
    if (written && status === 'failed') {
      await countedSafely(countFailed(this.doc, this.table, current), this.onCountFailure);
    }
    return written;
  }

  /** The status write of writeStatus, alone or with its outbox entry; null when its condition failed. */
  private async writeStatusItem(
    update: UpdateCommandInput & { UpdateExpression: string },
    entry: OutboxEntry | null | undefined,
    next: Message,
  ): Promise<Message | null> {
    try {
      if (!entry) {
        const result = await this.doc.send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
        return result.Attributes ? toMessage(result.Attributes) : null;
      }
      await this.doc.send(
        new TransactWriteCommand({
          TransactItems: [{ Update: update }, putNew(this.table, outboxItem(entry))],
        }),
      );
      return next;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (isConditionFailed(error) || failedAt(codes, 0)) return null;
      if (failedAt(codes, 1)) throw outboxTaken();
      throw error;
    }
  }

  private async putOutboxEntry(entry: OutboxEntry): Promise<void> {
    try {
      await this.doc.send(new PutCommand(putNew(this.table, outboxItem(entry)).Put));
    } catch (error) {
      if (isConditionFailed(error)) throw outboxTaken();
      throw error;
    }
  }

  /**
   * Sets the timestamp of a row that has none (and its history sort keys); answers the row as written, or null when
   * a concurrent write gave it a timestamp first (the caller re-reads).
   */
  private async fillTimestamp(current: Message, timestamp: number): Promise<Message | null> {
    try {
      const result = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: messageKey(current.id),
          ConditionExpression: 'attribute_not_exists(#ts) OR attribute_type(#ts, :nullType)',
          UpdateExpression: 'SET #ts = :ts, gsi1sk = :order, gsi2sk = :order',
          ExpressionAttributeNames: { '#ts': 'timestamp' },
          ExpressionAttributeValues: {
            ':nullType': 'NULL',
            ':ts': timestamp,
            ':order': messageOrderKey({ ...current, timestamp }),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? toMessage(result.Attributes) : null;
    } catch (error) {
      if (isConditionFailed(error)) return null;
      throw error;
    }
  }

  applyChange(
    sessionId: string,
    waMessageId: string,
    change: MessageChange,
    outbox?: OutboxEntryOfChange,
  ): Promise<ContentChange> {
    return guard(STORE, () =>
      applyContentChange(this.doc, this.table, { sessionId, waMessageId, change, outbox }),
    );
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(STORE, async () => (await deleteMessages(this.doc, this.table, { sessionId })).count);
  }

  deleteByChat(sessionId: string, chatId: string): Promise<string[]> {
    return guard(
      STORE,
      async () => (await deleteMessages(this.doc, this.table, { sessionId, chatId })).mediaPaths,
    );
  }

  private async read(id: string): Promise<Message | null> {
    const item = await getItem(this.doc, this.table, messageKey(id));
    return item ? toMessage(item) : null;
  }

  private async readByWa(sessionId: string, waMessageId: string): Promise<Message | null> {
    const lock = await getItem(this.doc, this.table, waKey(sessionId, waMessageId));
    const messageId = lock?.messageId;
    if (typeof messageId !== 'string') return null;
    const message = await this.read(messageId);
    return message?.sessionId === sessionId ? message : null;
  }
}
