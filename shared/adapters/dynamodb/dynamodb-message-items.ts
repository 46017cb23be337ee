/** The message items of the data table: their keys, history sort key and mapping to the Message record. */

import { type DynamoDBDocumentClient, type QueryCommandInput, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type Message, Message as MessageSchema } from '#shared/domain/message.js';
import { filterIds, type MessageFilter, type MessageScanPage } from '#shared/ports/message-store.port.js';
import type { Item } from './dynamodb-support.js';

export const messageKey = (id: string) => ({ pk: `MESSAGE#${id}`, sk: 'MESSAGE' });
export const waKey = (sessionId: string, waMessageId: string) => ({
  pk: `WAMSG#${sessionId}#${waMessageId}`,
  sk: 'LOCK',
});

/**
 * The history sort key: newest first under a descending query means timestamp, then createdAt, then id, all
 * descending, and messages without a timestamp last ('0' sorts below '1').
 */
export function messageOrderKey(message: Message): string {
  const time = message.timestamp === null ? '0' : `1#${String(message.timestamp).padStart(15, '0')}`;
  return `${time}#${message.createdAt}#${message.id}`;
}

/** Every field of a message, in schema order. */
const FIELDS = MessageSchema.keyof().options;

export function toMessage(item: Item): Message {
  const message: Record<string, unknown> = {};
  for (const field of FIELDS) message[field] = item[field] ?? null;
  const metadata = message.metadata;
  message.metadata =
    metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata : null;
  return message as Message;
}

/**
 * The newest-first query of a history page: one chat reads its own index partition (gsi2), the session or several
 * chats (a chat and its aliases) the session's (gsi1) with a filter; a sender filter matches `from` or `author`.
 */
export function historyQuery(table: string, filter: MessageFilter): QueryCommandInput {
  const chats = filterIds(filter.chatId);
  const [onlyChat] = chats;
  const input: QueryCommandInput =
    onlyChat === undefined || chats.length > 1
      ? {
          TableName: table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `MSG#${filter.sessionId}` },
        }
      : {
          TableName: table,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': `MSGCHAT#${filter.sessionId}#${onlyChat}` },
        };
  input.ScanIndexForward = false;
  const conditions: string[] = [];
  const values: Record<string, unknown> = {};
  const list = (name: string, ids: readonly string[]) =>
    ids
      .map((id, i) => {
        values[`:${name}${i}`] = id;
        return `:${name}${i}`;
      })
      .join(', ');
  if (chats.length > 1) conditions.push(`chatId IN (${list('chat', chats)})`);
  const senders = filterIds(filter.from);
  if (senders.length > 0) {
    const ids = list('from', senders);
    conditions.push(`(#from IN (${ids}) OR author IN (${ids}))`);
    input.ExpressionAttributeNames = { '#from': 'from' };
  }
  if (conditions.length > 0) {
    input.FilterExpression = conditions.join(' AND ');
    input.ExpressionAttributeValues = { ...input.ExpressionAttributeValues, ...values };
  }
  return input;
}

/** The table key a scan cursor names (base64url JSON of `pk`/`sk`); anything else starts over. */
function scanStart(after: string | null): Item | undefined {
  if (after === null) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (key === null || typeof key !== 'object') return undefined;
    const { pk, sk } = key as Item;
    return typeof pk === 'string' && typeof sk === 'string' ? { pk, sk } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A page of a Scan of the whole data table keeping the message items (the data export). `limit` bounds the items
 * read, so a page of a table holding other items too may keep fewer messages, or none, and still not be the last.
 */
export async function scanMessages(
  doc: DynamoDBDocumentClient,
  table: string,
  after: string | null,
  limit: number,
): Promise<MessageScanPage> {
  const answer = await doc.send(
    new ScanCommand({
      TableName: table,
      Limit: limit,
      ExclusiveStartKey: scanStart(after),
      FilterExpression: 'sk = :message',
      ExpressionAttributeValues: { ':message': 'MESSAGE' },
      ConsistentRead: true,
    }),
  );
  const last = answer.LastEvaluatedKey;
  return {
    messages: (answer.Items ?? []).map(toMessage),
    next: last
      ? Buffer.from(JSON.stringify({ pk: last.pk, sk: last.sk }), 'utf8').toString('base64url')
      : null,
  };
}
