/**
 * The message counters in DynamoDB (shared/domain/message-stats.ts), written by the message store after a message's
 * transaction, as counter updates (ADD) rather than inside it: every message of a session bumps the same few items,
 * and transactions touching one item at once would cancel each other under load, where plain updates queue. Items:
 * - totals   pk `STATS#<sessionId>`, sk `TOTAL`: `o` outgoing, `i` incoming, `f` failed.
 * - hour     pk `STATS#<sessionId>`, sk `H#<epoch hour, 8 digits>`: `o`, `i`, `f` and `t_<type>` per type; `ttl`
 *            STATS_KEPT_DAYS past the hour. Day items alike, sk `D#<epoch day, 6 digits>`, so 7 and 30 days read
 *            7 or 30 items per session, not 720 hours.
 * - chat     pk `STATCHATS#<sessionId>`, sk `CHAT#<chatId>`: `d<epoch day>` per day, `lastAt` (epoch s, only ever
 *            raised); `ttl` STATS_KEPT_DAYS past its last message, and each write removes the day counts of the month
 *            before the kept window, so an item holds about STATS_KEPT_DAYS counts.
 * A counter write that fails after the message's transaction (the SDK has retried) never fails the message's write:
 * the message is stored and its write answers as such, and the message stays uncounted (`countedSafely`), the price
 * of keeping counters off the transaction. The same for a process that dies between the two; and an ADD whose answer
 * was lost and that the SDK sends again counts twice. So these
 * counters are exact only while every write answers (the tests'), close otherwise. A session's items share one
 * partition: at about 1,000 writes a second per partition, some 300 messages a second on one session are its ceiling.
 * (SQLite, by contrast, queues each message in its insert transaction and folds the queue later: exact.)
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Message } from '#shared/domain/message.js';
import { dayOf, hourOf, STATS_KEPT_DAYS, statsTime } from '#shared/domain/message-stats.js';
import { isConditionFailed } from './dynamodb-support.js';

const DAY = 86_400;

/** The partition of a session's totals and hours. */
export const statsPk = (sessionId: string) => `STATS#${sessionId}`;
/** The partition of a session's chat counts. */
export const chatStatsPk = (sessionId: string) => `STATCHATS#${sessionId}`;
/** The sort key of an epoch hour's item. */
export const hourSk = (hour: number) => `H#${String(hour).padStart(8, '0')}`;
/** The sort key of an epoch day's item (sorts before every hour's). */
export const daySk = (day: number) => `D#${String(day).padStart(6, '0')}`;
/** The first epoch hour of an hour or day item, from its sort key. */
export const bucketHour = (sk: string) => Number(sk.slice(2)) * (sk.startsWith('D#') ? 24 : 1);
/** The attribute of a type's count in an hour item. */
export const typeAttribute = (type: string) => `t_${type}`;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Counts a stored message: its session's totals, its hour and its chat's day (these two within the kept window). */
export async function countStored(
  doc: DynamoDBDocumentClient,
  table: string,
  message: Message,
): Promise<void> {
  const time = statsTime(message);
  const kept = time >= nowSeconds() - STATS_KEPT_DAYS * DAY;
  const values = {
    ':o': message.direction === 'outgoing' ? 1 : 0,
    ':i': message.direction === 'incoming' ? 1 : 0,
    ':f': message.direction === 'outgoing' && message.status === 'failed' ? 1 : 0,
  };
  const writes: Promise<unknown>[] = [
    doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: statsPk(message.sessionId), sk: 'TOTAL' },
        UpdateExpression: 'ADD o :o, i :i, f :f',
        ExpressionAttributeValues: values,
      }),
    ),
  ];
  if (kept) {
    const bucket = (sk: string, end: number) =>
      doc.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: statsPk(message.sessionId), sk },
          UpdateExpression: 'ADD o :o, i :i, f :f, #type :one SET #ttl = :ttl',
          ExpressionAttributeNames: { '#type': typeAttribute(message.type), '#ttl': 'ttl' },
          ExpressionAttributeValues: { ...values, ':one': 1, ':ttl': end + STATS_KEPT_DAYS * DAY },
        }),
      );
    writes.push(
      bucket(hourSk(hourOf(time)), (hourOf(time) + 1) * 3600),
      bucket(daySk(dayOf(time)), (dayOf(time) + 1) * DAY),
      countChat(doc, table, message, time),
    );
  }
  await Promise.all(writes);
}

/** Counts the message in its chat's day; raises `lastAt` where it is later (one update, two on a late message). */
async function countChat(doc: DynamoDBDocumentClient, table: string, message: Message, time: number) {
  const day = dayOf(time);
  // The counts of the 31 days before the kept window go with each write; older ones went with earlier writes or
  // with the item (TTL) when the chat was quiet longer than the window.
  const stale = Array.from({ length: 31 }, (_, i) => `d${dayOf(nowSeconds()) - STATS_KEPT_DAYS - 1 - i}`);
  const names: Record<string, string> = { '#day': `d${day}` };
  stale.forEach((name, i) => {
    names[`#s${i}`] = name;
  });
  const update = {
    TableName: table,
    Key: { pk: chatStatsPk(message.sessionId), sk: `CHAT#${message.chatId}` },
    ExpressionAttributeNames: names,
  };
  const remove = ` REMOVE ${stale.map((_, i) => `#s${i}`).join(', ')}`;
  const ttl = Math.max(time, nowSeconds()) + STATS_KEPT_DAYS * DAY;
  try {
    await doc.send(
      new UpdateCommand({
        ...update,
        UpdateExpression: `ADD #day :one SET lastAt = :t, chatId = :chat, #ttl = :ttl${remove}`,
        ExpressionAttributeNames: { ...names, '#ttl': 'ttl' },
        ConditionExpression: 'attribute_not_exists(lastAt) OR lastAt < :t',
        ExpressionAttributeValues: { ':one': 1, ':t': time, ':chat': message.chatId, ':ttl': ttl },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    await doc.send(
      new UpdateCommand({
        ...update,
        UpdateExpression: `ADD #day :one${remove}`,
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
  }
}

/** Counts an outgoing message whose send failed (`message` as it was before), in its totals and its hour. */
export async function countFailed(
  doc: DynamoDBDocumentClient,
  table: string,
  message: Message,
): Promise<void> {
  if (message.direction !== 'outgoing') return;
  const add = (sk: string, onlyExisting: boolean) =>
    doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: statsPk(message.sessionId), sk },
        UpdateExpression: 'ADD f :one',
        ExpressionAttributeValues: { ':one': 1 },
        // An hour past the window (gone by TTL) is not brought back without its TTL.
        ...(onlyExisting ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
      }),
    );
  const ifKept = (sk: string) =>
    add(sk, true).catch((error: unknown) => {
      if (!isConditionFailed(error)) throw error;
    });
  await Promise.all([
    add('TOTAL', false),
    ifKept(hourSk(hourOf(statsTime(message)))),
    ifKept(daySk(dayOf(statsTime(message)))),
  ]);
}

/**
 * Runs a count after a message's write: a counter that cannot be written leaves the message uncounted and is
 * reported to `onFailure`, never thrown into the write that stored the message (its caller would take a stored
 * message for a failed one: a send marked failed, an inbound message refused and redelivered).
 */
export async function countedSafely(
  count: Promise<void>,
  onFailure: (error: unknown) => void,
): Promise<void> {
  try {
    await count;
  } catch (error) {
    onFailure(error);
  }
}
