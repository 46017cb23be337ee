/**
 * Message batches in the data table: one partition per session (`BATCHES#<sessionId>`). The batch item (sk
 * `BATCH#<batchId>`) holds the snake_case row of batch-rows.ts without its items; the items, up to a megabyte of
 * JSON and so beyond DynamoDB's 400 KB item cap, are written once, in the same transaction, as parts (sk
 * `BATCHPART#<batchId>#<i>`, text `v`). While a batch is unfinished its item carries gsi1pk `BATCHES#UNFINISHED`
 * and gsi1sk `<sessionId>#<created_at>#<batchId>`, which the cap counts and a resume lists; the write that finishes
 * it removes them. Updates are conditional on the status and index read (compare-and-set).
 */
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type BatchRow, batchChanges, fromBatchRow, toBatchRow } from '#shared/adapters/batch-rows.js';
import { type BatchVersion, isBatchFinished, type MessageBatch } from '#shared/domain/message-batch.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import { type BatchStore, batchIdTaken } from '#shared/ports/batch-store.port.js';
import {
  cancellationCodes,
  deletePartition,
  failedAt,
  getItem,
  guard,
  type Item,
  isConditionFailed,
  putNew,
  queryAll,
  queryCount,
  queryPages,
  sessionExistsCheck,
} from './dynamodb-support.js';

const STORE = 'Data store';
const UNFINISHED_INDEX_PK = 'BATCHES#UNFINISHED';
/** UTF-16 units per part: at most 3 UTF-8 bytes each, so a part stays below 300 KB. */
const PART_UNITS = 100_000;

const partition = (sessionId: string) => `BATCHES#${sessionId}`;
const batchKey = (sessionId: string, batchId: string) => ({
  pk: partition(sessionId),
  sk: `BATCH#${batchId}`,
});
// batchIds never hold '#', so one batch's part prefix is never the start of another's.
const partPrefix = (batchId: string) => `BATCHPART#${batchId}#`;

/** `text` in pieces of at most PART_UNITS units, never splitting a surrogate pair. */
function splitText(text: string): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + PART_UNITS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

const unfinishedIndex = (row: BatchRow) => ({
  gsi1pk: UNFINISHED_INDEX_PK,
  gsi1sk: `${row.session_id}#${row.created_at}#${row.batch_id}`,
});

/** BatchStore on the data table. */
export class DynamoDbBatchStore implements BatchStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  create(batch: MessageBatch): Promise<void> {
    return guard(STORE, async () => {
      const { messages, ...row } = toBatchRow(batch);
      const parts = splitText(messages);
      const header: Item = {
        ...row,
        ...batchKey(batch.sessionId, batch.batchId),
        ...(isBatchFinished(batch) ? {} : unfinishedIndex({ messages, ...row })),
      };
      const partItems = parts.map((v, i) => ({
        Put: {
          TableName: this.table,
          Item: {
            pk: partition(batch.sessionId),
            sk: `${partPrefix(batch.batchId)}${String(i).padStart(3, '0')}`,
            v,
          },
        },
      }));
      try {
        await this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              sessionExistsCheck(this.table, batch.sessionId),
              putNew(this.table, header),
              ...partItems,
            ],
          }),
        );
      } catch (error) {
        const codes = cancellationCodes(error);
        if (failedAt(codes, 0))
          throw new NotFoundError(`Session ${batch.sessionId} not found`, { cause: error });
        if (failedAt(codes, 1)) throw batchIdTaken(batch.batchId);
        throw error;
      }
    });
  }

  find(sessionId: string, batchId: string): Promise<MessageBatch | null> {
    return guard(STORE, async () => {
      const header = await getItem(this.doc, this.table, batchKey(sessionId, batchId));
      if (!header) return null;
      const parts = await queryAll(this.doc, {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': partition(sessionId), ':prefix': partPrefix(batchId) },
        ConsistentRead: true,
      });
      const messages = parts.map((part) => String(part.v ?? '')).join('');
      return fromBatchRow({ ...(header as unknown as BatchRow), messages });
    });
  }

  listUnfinished(sessionId: string): Promise<MessageBatch[]> {
    return guard(STORE, async () => {
      // The index is eventually consistent: it names the candidates, and each is read again consistently.
      const indexed = await queryAll(this.doc, {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :session)',
        ExpressionAttributeValues: { ':pk': UNFINISHED_INDEX_PK, ':session': `${sessionId}#` },
      });
      const batches = await Promise.all(indexed.map((item) => this.find(sessionId, String(item.batch_id))));
      return batches.filter((batch): batch is MessageBatch => batch !== null && !isBatchFinished(batch));
    });
  }

  listBySession(sessionId: string, afterBatchId: string | null, limit: number): Promise<MessageBatch[]> {
    return guard(STORE, async () => {
      // The headers in sk (so batchId) order; each batch is then read whole with its item parts.
      const headers: Item[] = [];
      for await (const result of queryPages(this.doc, {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': partition(sessionId), ':prefix': 'BATCH#' },
        ProjectionExpression: 'pk, sk, batch_id',
        ConsistentRead: true,
        ...(afterBatchId === null ? {} : { ExclusiveStartKey: batchKey(sessionId, afterBatchId) }),
      })) {
        headers.push(...((result.Items ?? []) as Item[]));
        if (headers.length >= limit) break;
      }
      const batches = await Promise.all(
        headers.slice(0, limit).map((header) => this.find(sessionId, String(header.batch_id))),
      );
      return batches.filter((batch): batch is MessageBatch => batch !== null);
    });
  }

  countUnfinished(): Promise<number> {
    return guard(STORE, () =>
      queryCount(this.doc, {
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': UNFINISHED_INDEX_PK },
      }),
    );
  }

  update(batch: MessageBatch, expected: BatchVersion): Promise<boolean> {
    return guard(STORE, async () => {
      const changes = batchChanges(batch);
      const names: Record<string, string> = {
        '#expectedStatus': 'status',
        '#expectedIndex': 'current_index',
      };
      const values: Record<string, unknown> = {
        ':expectedStatus': expected.status,
        ':expectedIndex': expected.currentIndex,
      };
      const sets = Object.entries(changes).map(([column, value], i) => {
        names[`#c${i}`] = column;
        values[`:c${i}`] = value;
        return `#c${i} = :c${i}`;
      });
      const removeIndex = isBatchFinished(batch) ? ' REMOVE gsi1pk, gsi1sk' : '';
      try {
        await this.doc.send(
          new UpdateCommand({
            TableName: this.table,
            Key: batchKey(batch.sessionId, batch.batchId),
            UpdateExpression: `SET ${sets.join(', ')}${removeIndex}`,
            ConditionExpression:
              'attribute_exists(pk) AND #expectedStatus = :expectedStatus AND #expectedIndex = :expectedIndex',
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailed(error)) return false;
        throw error;
      }
    });
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(STORE, async () => {
      const sortKeys = await deletePartition(this.doc, this.table, partition(sessionId));
      return sortKeys.filter((sk) => sk.startsWith('BATCH#')).length;
    });
  }
}
