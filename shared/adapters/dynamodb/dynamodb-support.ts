/**
 * Shared plumbing of the DynamoDB adapters: the document client, error translation, strongly consistent reads and
 * paged queries.
 */
import { type DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { AppError, ConflictError, UnavailableError } from '#shared/errors/app-error.js';

/** An item as the document client hands it out. */
export type Item = Record<string, unknown>;

/** The document client every adapter uses; undefined attributes are dropped rather than rejected. */
export function documentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** True for a failed single-item condition. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * The cancellation codes of a failed transaction, one per action ('None' for the ones that were fine), or null
 * when the error is not a cancelled transaction.
 */
export function cancellationCodes(error: unknown): string[] | null {
  if (
    !(error instanceof TransactionCanceledException) &&
    !(error instanceof Error && error.name === 'TransactionCanceledException')
  ) {
    return null;
  }
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

/** True when the transaction was cancelled because the condition of action `index` failed. */
export function failedAt(codes: readonly string[] | null, index: number): boolean {
  return codes?.[index] === 'ConditionalCheckFailed';
}

/** Maps anything that is not already an AppError to a retryable 503, so a driver error never leaks as a 500. */
export function toStoreError(error: unknown, store: string): AppError {
  if (error instanceof AppError) return error;
  if (cancellationCodes(error)?.includes('ConditionalCheckFailed') || isConditionFailed(error)) {
    return new ConflictError('CONFLICT', `${store}: the record changed concurrently`, { cause: error });
  }
  return new UnavailableError('DEPENDENCY_UNAVAILABLE', `${store} is unavailable`, { cause: error });
}

/** Runs a store operation and translates whatever it throws. */
export async function guard<T>(store: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toStoreError(error, store);
  }
}

/** One item by its key, read strongly consistent (a write this process made is always seen); null if absent. */
export async function getItem(
  doc: DynamoDBDocumentClient,
  table: string,
  key: Record<string, unknown>,
): Promise<Item | null> {
  const result = await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
  return (result.Item as Item | undefined) ?? null;
}

/** The pages of a query, following LastEvaluatedKey; the caller stops early by leaving the loop. */
export async function* queryPages(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
): AsyncGenerator<QueryCommandOutput> {
  let start = input.ExclusiveStartKey;
  do {
    const page: QueryCommandOutput = await doc.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield page;
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Every item of a query, following LastEvaluatedKey. */
export async function queryAll(doc: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages(doc, input)) items.push(...((page.Items ?? []) as Item[]));
  return items;
}

/** How many items a query matches (a COUNT query over every page; filters apply). */
export async function queryCount(doc: DynamoDBDocumentClient, input: QueryCommandInput): Promise<number> {
  let total = 0;
  for await (const page of queryPages(doc, { ...input, Select: 'COUNT' })) total += page.Count ?? 0;
  return total;
}

/** The strongly consistent query of one partition (the single-partition stores list, count and guard from it). */
export function partitionQuery(table: string, pk: string): QueryCommandInput {
  return {
    TableName: table,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ConsistentRead: true,
  };
}

/** Every item of one partition, read strongly consistent. */
export function queryPartition(doc: DynamoDBDocumentClient, table: string, pk: string): Promise<Item[]> {
  return queryAll(doc, partitionQuery(table, pk));
}

/**
 * One offset page of a query plus the number of all matching items. DynamoDB has no offsets: the page walks the
 * index until it has `offset + limit` matches, and the total is a separate COUNT query (filters apply to both).
 */
export async function queryPage(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  page: { limit: number; offset: number },
): Promise<{ items: Item[]; total: number }> {
  return { items: await queryOffset(doc, input, page), total: await queryCount(doc, input) };
}

/**
 * One offset page of a query without a total. DynamoDB has no offsets: the `offset` items before the page are walked
 * first with only their keys projected (a fraction of the bytes to read, send and parse), and the page itself is
 * read from the key of the last one skipped.
 */
export async function queryOffset(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  page: { limit: number; offset: number },
): Promise<Item[]> {
  const start = page.offset > 0 ? await keyAfter(doc, input, page.offset) : undefined;
  if (start === null) return [];
  const items: Item[] = [];
  for await (const result of queryPages(doc, { ...input, ExclusiveStartKey: start })) {
    items.push(...((result.Items ?? []) as Item[]));
    if (items.length >= page.limit) break;
  }
  return items.slice(0, page.limit);
}

/** The key of the query's `count`-th match (a page's ExclusiveStartKey); null when there are fewer. */
async function keyAfter(
  doc: DynamoDBDocumentClient,
  input: QueryCommandInput,
  count: number,
): Promise<Record<string, unknown> | null> {
  // A start key names the table's keys and, on an index, the index's too.
  const names = input.IndexName ? ['pk', 'sk', `${input.IndexName}pk`, `${input.IndexName}sk`] : ['pk', 'sk'];
  let seen = 0;
  for await (const result of queryPages(doc, { ...input, ProjectionExpression: names.join(', ') })) {
    const keys = (result.Items ?? []) as Item[];
    const last = keys[count - seen - 1];
    if (last) return Object.fromEntries(names.map((name) => [name, last[name]]));
    seen += keys.length;
  }
  return null;
}

/** A deep copy, so callers never share objects with what was sent or received. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** Splits a list into chunks of at most `size` (batch and transaction limits). */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Deletes keys with BatchWriteItem (25 a call), resending whatever DynamoDB reports as unprocessed. */
export async function batchDelete(
  doc: DynamoDBDocumentClient,
  table: string,
  keys: readonly Record<string, string>[],
): Promise<void> {
  for (const batch of chunks(keys, 25)) {
    let requests = batch.map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      const result = await doc.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (result.UnprocessedItems?.[table] ?? []).flatMap((request) =>
        request.DeleteRequest?.Key
          ? [{ DeleteRequest: { Key: request.DeleteRequest.Key as Record<string, string> } }]
          : [],
      );
      if (attempt > 8 && requests.length > 0) throw new Error('DynamoDB left deletes unprocessed');
    }
  }
}

/** Deletes every item of one partition (read strongly consistent); answers their sort keys. */
export async function deletePartition(
  doc: DynamoDBDocumentClient,
  table: string,
  pk: string,
): Promise<string[]> {
  const items = await queryAll(doc, { ...partitionQuery(table, pk), ProjectionExpression: 'pk, sk' });
  const sortKeys = items.map((item) => String(item.sk));
  await batchDelete(
    doc,
    table,
    sortKeys.map((sk) => ({ pk, sk })),
  );
  return sortKeys;
}

/**
 * A transaction's check that the session row exists: nothing a session owns is written for an unknown or deleted
 * session.
 */
export function sessionExistsCheck(table: string, sessionId: string) {
  return {
    ConditionCheck: {
      TableName: table,
      Key: { pk: 'SESSIONS', sk: `SESSION#${sessionId}` },
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
}

/** A transaction's Put that only creates: its condition fails where an item with that key stands already. */
export function putNew(table: string, item: Item) {
  return { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * Creates `item` and the lock item that keeps one of its attributes unique (a name, a hash), in one transaction.
 * Where either stands already nothing is written, and the error for that one is thrown.
 */
export async function createWithLock(
  doc: DynamoDBDocumentClient,
  table: string,
  records: { item: Item; lock: Item },
  conflicts: { item: () => AppError; lock: () => AppError },
): Promise<void> {
  try {
    await doc.send(
      new TransactWriteCommand({ TransactItems: [putNew(table, records.item), putNew(table, records.lock)] }),
    );
  } catch (error) {
    const codes = cancellationCodes(error);
    if (failedAt(codes, 0)) throw conflicts.item();
    if (failedAt(codes, 1)) throw conflicts.lock();
    throw error;
  }
}

/** `SET` clauses for every field of `patch`, with placeholder names (field names may be reserved words). */
export function setExpression(patch: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(patch).map(([field, value], index) => {
    names[`#f${index}`] = field;
    values[`:v${index}`] = copy(value);
    return `#f${index} = :v${index}`;
  });
  return {
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
