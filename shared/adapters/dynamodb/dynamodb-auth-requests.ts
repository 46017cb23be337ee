/**
 * DynamoDB requests of the auth-state store: batched reads and writes with their retries of unprocessed items,
 * atomic writes in as few requests as DynamoDB allows, and reading values back together from their parts.
 */
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  type BatchWriteCommandOutput,
  DeleteCommand,
  type DynamoDBDocumentClient,
  PutCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { UnavailableError } from '#shared/errors/app-error.js';
import { type ItemWrite, JOURNAL_PREFIX, PART_PREFIX, partSk } from './dynamodb-auth-layout.js';
import { chunks, type Item, queryAll } from './dynamodb-support.js';

/** The table the store writes to and the client it writes with. */
export interface AuthTable {
  doc: DynamoDBDocumentClient;
  table: string;
}

/** Keys of one BatchGetItem and writes of one BatchWriteItem, as DynamoDB limits them. */
const BATCH_GET_KEYS = 100;
const BATCH_WRITE_ITEMS = 25;
/** Requests of one call in flight at once: enough to hide latency, few enough not to trip throttling. */
const PARALLEL_REQUESTS = 8;
/** Rounds without progress before unprocessed items count as an outage (backoff doubles from 25 ms to 1.6 s). */
const MAX_IDLE_ROUNDS = 7;
/** Re-reads of a multipart value whose parts kept changing underneath before giving up. */
const MAX_PART_REREADS = 3;

/** The key of a stored item. */
export interface ItemKey {
  pk: string;
  sk: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` over `items` with at most `limit` calls pending. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Repeats a batch request with what DynamoDB left unprocessed (throttling, or the 16 MB answer limit) until
 * nothing is left. A round that made progress is retried at once; rounds that made none back off exponentially.
 */
async function untilProcessed<T>(first: T[], round: (pending: T[]) => Promise<T[]>): Promise<void> {
  let pending = first;
  let idle = 0;
  while (pending.length > 0) {
    const left = await round(pending);
    if (left.length < pending.length) idle = 0;
    else if (++idle > MAX_IDLE_ROUNDS) {
      throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'DynamoDB left items unprocessed', {
        details: { unprocessed: left.length },
      });
    } else await sleep(25 * 2 ** (idle - 1) * (0.5 + Math.random()));
    pending = left;
  }
}

/** Every item of `keys` that exists, read strongly consistent (BatchGetItem, 100 keys a request). */
export async function batchGet(
  t: AuthTable,
  keys: readonly ItemKey[],
  attributes: string[],
): Promise<Item[]> {
  const names = Object.fromEntries(attributes.map((name) => [`#${name}`, name]));
  const found: Item[] = [];
  await mapLimit(chunks(keys, BATCH_GET_KEYS), PARALLEL_REQUESTS, (chunk) =>
    untilProcessed(chunk, async (pending) => {
      const answer: BatchGetCommandOutput = await t.doc.send(
        new BatchGetCommand({
          RequestItems: {
            [t.table]: {
              Keys: pending,
              ConsistentRead: true,
              ProjectionExpression: Object.keys(names).join(', '),
              ExpressionAttributeNames: names,
            },
          },
        }),
      );
      found.push(...((answer.Responses?.[t.table] ?? []) as Item[]));
      return (answer.UnprocessedKeys?.[t.table]?.Keys ?? []) as ItemKey[];
    }),
  );
  return found;
}

/** Applies writes with BatchWriteItem (25 a request): idempotent, not atomic. */
export async function batchWrite(t: AuthTable, writes: readonly ItemWrite[]): Promise<void> {
  const requests = writes.map((write) =>
    'put' in write ? { PutRequest: { Item: write.put } } : { DeleteRequest: { Key: write.delete } },
  );
  await mapLimit(chunks(requests, BATCH_WRITE_ITEMS), PARALLEL_REQUESTS, (chunk) =>
    untilProcessed(chunk, async (pending) => {
      const answer: BatchWriteCommandOutput = await t.doc.send(
        new BatchWriteCommand({ RequestItems: { [t.table]: pending } }),
      );
      return (answer.UnprocessedItems?.[t.table] ?? []) as typeof requests;
    }),
  );
}

/**
 * Applies writes all-or-nothing in one request: a lone item as PutItem or DeleteItem, more as one
 * TransactWriteItems (the caller keeps them within its limits; the SDK adds an idempotency token, so its own
 * retries cannot apply a transaction twice).
 */
export async function writeAtomically(t: AuthTable, writes: readonly ItemWrite[]): Promise<void> {
  const [only] = writes;
  if (only === undefined) return;
  if (writes.length === 1) {
    if ('put' in only) await t.doc.send(new PutCommand({ TableName: t.table, Item: only.put }));
    else await t.doc.send(new DeleteCommand({ TableName: t.table, Key: only.delete }));
    return;
  }
  await t.doc.send(
    new TransactWriteCommand({
      TransactItems: writes.map((write) =>
        'put' in write
          ? { Put: { TableName: t.table, Item: write.put } }
          : { Delete: { TableName: t.table, Key: write.delete } },
      ),
    }),
  );
}

/**
 * The stored values of the heads `sks` in partition `pk`, reassembled from their parts. A value whose parts do
 * not all carry its head's revision was rewritten between reading the head and the parts: it is read again.
 */
export async function readValues(
  t: AuthTable,
  pk: string,
  sks: readonly string[],
): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  let heads = await batchGet(
    t,
    sks.map((sk) => ({ pk, sk })),
    ['sk', 'v', 'n', 'r'],
  );
  for (let round = 0; ; round++) {
    const multipart: Item[] = [];
    for (const head of heads) {
      if (typeof head.n === 'number' && head.n > 1) multipart.push(head);
      else values.set(head.sk as string, head.v as string);
    }
    if (multipart.length === 0) return values;
    if (round === MAX_PART_REREADS) {
      throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Auth-state value kept changing while read');
    }
    const partKeys = multipart.flatMap((head) =>
      Array.from({ length: (head.n as number) - 1 }, (_, i) => ({
        pk,
        sk: partSk(head.sk as string, i + 1),
      })),
    );
    const parts = new Map(
      (await batchGet(t, partKeys, ['sk', 'v', 'r'])).map((part) => [part.sk as string, part]),
    );
    const changed: string[] = [];
    for (const head of multipart) {
      const sk = head.sk as string;
      const text = [head.v as string];
      for (let i = 1; i < (head.n as number); i++) {
        const part = parts.get(partSk(sk, i));
        if (part === undefined || part.r !== head.r) break;
        text.push(part.v as string);
      }
      if (text.length === head.n) values.set(sk, text.join(''));
      else changed.push(sk);
    }
    if (changed.length === 0) return values;
    heads = await batchGet(
      t,
      changed.map((sk) => ({ pk, sk })),
      ['sk', 'v', 'n', 'r'],
    );
  }
}

/** The sort keys of every item of partition `pk` (a keys-only Query, strongly consistent). */
async function partitionSks(t: AuthTable, pk: string): Promise<string[]> {
  const items = await queryAll(t.doc, {
    TableName: t.table,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: 'sk',
    ConsistentRead: true,
  });
  return items.map((item) => item.sk as string);
}

/** The sort keys of partition `pk`'s value heads: every item but journals and parts. */
export async function listHeads(t: AuthTable, pk: string): Promise<string[]> {
  return (await partitionSks(t, pk)).filter(
    (sk) => !sk.startsWith(JOURNAL_PREFIX) && !sk.startsWith(PART_PREFIX),
  );
}

/**
 * Deletes every item of partition `pk` (a keys-only Query, then BatchWriteItem): journals first, then value heads,
 * then parts, so a wipe cut short never leaves a journal or a value missing parts, only parts without a head,
 * which the next recovery finds and later writes or wipes delete.
 */
export async function deletePartition(t: AuthTable, pk: string): Promise<void> {
  const sks = await partitionSks(t, pk);
  const phase = (sk: string) => (sk.startsWith(JOURNAL_PREFIX) ? 0 : sk.startsWith(PART_PREFIX) ? 2 : 1);
  for (const current of [0, 1, 2]) {
    await batchWrite(
      t,
      sks.filter((sk) => phase(sk) === current).map((sk) => ({ delete: { pk, sk }, bytes: 0 })),
    );
  }
}
