/**
 * The event outbox in the data table. An entry is pk `OUTBOX#<id>`, sk `OUTBOX`, with the event as JSON text;
 * gsi1pk `OUTBOX#<shard>` (SHARDS partitions, by id, so a busy gateway's outbox writes are not all on one index
 * partition), gsi1sk `<dueAt>#<id>`, where dueAt is the creation and then the last claim. The message store puts
 * an entry in the same TransactWriteItems as its message (`outboxItem`); a sweep queries every shard for entries
 * due before a time and claims each with a conditional update on the gsi1sk it read, so two sweepers never both
 * take one entry.
 */
import {
  type DynamoDBDocumentClient,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { parseGatewayEvent } from '#shared/domain/events.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type {
  EventOutbox,
  OutboxEntry,
  OutboxPage,
  StoredOutboxEntry,
} from '#shared/ports/event-outbox.port.js';
import {
  batchDelete,
  cancellationCodes,
  chunks,
  guard,
  type Item,
  isConditionFailed,
  putNew,
  queryAll,
} from './dynamodb-support.js';

const STORE = 'Event outbox';
const SHARDS = 4;

const outboxKey = (id: string) => ({ pk: `OUTBOX#${id}`, sk: 'OUTBOX' });

function shardOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % SHARDS;
}

/** The item of an entry, for a Put of its own or inside another store's transaction. */
export function outboxItem(entry: OutboxEntry): Item {
  return {
    ...outboxKey(entry.id),
    id: entry.id,
    sessionId: entry.event.sessionId,
    event: JSON.stringify(entry.event),
    createdAt: entry.createdAt,
    gsi1pk: `OUTBOX#${shardOf(entry.id)}`,
    gsi1sk: `${entry.createdAt}#${entry.id}`,
  };
}

export const outboxTaken = () => new ConflictError('CONFLICT', 'An outbox entry with this id already exists');

function toEntry(item: Item): OutboxEntry {
  return {
    id: String(item.id),
    event: parseGatewayEvent(JSON.parse(String(item.event))),
    createdAt: String(item.createdAt),
  };
}

/** An entry with its claim state: its gsi1sk's due time, a claim once past the creation. */
function toStoredEntry(item: Item): StoredOutboxEntry {
  const entry = toEntry(item);
  const dueAt = String(item.gsi1sk).slice(0, -(entry.id.length + 1));
  return { ...entry, claimedAt: dueAt === entry.createdAt ? null : dueAt };
}

/** Where a scan goes on: a shard of the index and the key to start after in it (base64url JSON). */
interface ScanCursor {
  shard: number;
  start?: Item;
}

function scanCursor(after: string | null): ScanCursor {
  if (after === null) return { shard: 0 };
  const cursor = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as ScanCursor;
  return { shard: Number(cursor.shard), ...(cursor.start ? { start: cursor.start } : {}) };
}

const encodeCursor = (cursor: ScanCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

export class DynamoDbEventOutbox implements EventOutbox {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  append(entries: readonly OutboxEntry[]): Promise<void> {
    return guard(STORE, async () => {
      for (const batch of chunks(entries, 100)) {
        try {
          await this.doc.send(
            new TransactWriteCommand({
              TransactItems: batch.map((entry) => putNew(this.table, outboxItem(entry))),
            }),
          );
        } catch (error) {
          if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw outboxTaken();
          throw error;
        }
      }
    });
  }

  claimStale(options: { olderThan: Date; now: Date; limit: number }): Promise<OutboxEntry[]> {
    return guard(STORE, async () => {
      const before = options.olderThan.toISOString();
      const now = options.now.toISOString();
      const shards = await Promise.all(
        Array.from({ length: SHARDS }, (_, shard) =>
          this.doc.send(
            new QueryCommand({
              TableName: this.table,
              IndexName: 'gsi1',
              KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
              ExpressionAttributeValues: { ':pk': `OUTBOX#${shard}`, ':before': before },
              Limit: options.limit,
            }),
          ),
        ),
      );
      const due = shards
        .flatMap((result) => (result.Items ?? []) as Item[])
        .sort((a, b) => String(a.gsi1sk).localeCompare(String(b.gsi1sk)))
        .slice(0, options.limit);
      const claimed = await Promise.all(due.map((item) => this.claim(item, now)));
      return claimed.flatMap((item) => (item ? [toEntry(item)] : []));
    });
  }

  /** The entry as claimed, or null when another sweeper claimed or completed it first. */
  private async claim(item: Item, now: string): Promise<Item | null> {
    try {
      const result = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: outboxKey(String(item.id)),
          ConditionExpression: 'gsi1sk = :seen',
          UpdateExpression: 'SET gsi1sk = :claimed',
          ExpressionAttributeValues: { ':seen': item.gsi1sk, ':claimed': `${now}#${String(item.id)}` },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return (result.Attributes as Item | undefined) ?? null;
    } catch (error) {
      if (isConditionFailed(error)) return null;
      throw error;
    }
  }

  complete(ids: readonly string[]): Promise<void> {
    return guard(STORE, () => batchDelete(this.doc, this.table, [...new Set(ids)].map(outboxKey)));
  }

  scan(after: string | null, limit: number): Promise<OutboxPage> {
    return guard(STORE, async () => {
      const { shard, start } = scanCursor(after);
      const result = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `OUTBOX#${shard}` },
          Limit: limit,
          ExclusiveStartKey: start,
        }),
      );
      const entries = ((result.Items ?? []) as Item[]).map(toStoredEntry);
      const resume = result.LastEvaluatedKey as Item | undefined;
      // A shard read to its end hands over to the next one; a page may so be short before the last shard.
      const next: ScanCursor | null = resume
        ? { shard, start: resume }
        : shard + 1 < SHARDS
          ? { shard: shard + 1 }
          : null;
      return { entries, next: next ? encodeCursor(next) : null };
    });
  }

  restore(entries: readonly StoredOutboxEntry[]): Promise<void> {
    return guard(STORE, async () => {
      for (const batch of chunks(entries, 25)) {
        await Promise.all(
          batch.map(({ claimedAt, ...entry }) => {
            const item = outboxItem(entry);
            const dueAt = claimedAt ?? entry.createdAt;
            return this.doc.send(
              new PutCommand({ TableName: this.table, Item: { ...item, gsi1sk: `${dueAt}#${entry.id}` } }),
            );
          }),
        );
      }
    });
  }

  count(): Promise<number> {
    return guard(STORE, async () => {
      let total = 0;
      for (let shard = 0; shard < SHARDS; shard++) {
        const items = await queryAll(this.doc, {
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `OUTBOX#${shard}` },
          ProjectionExpression: 'pk',
        });
        total += items.length;
      }
      return total;
    });
  }
}
