/**
 * Items owned by a session (webhooks, automation rules, templates) in the data table: the part their DynamoDB
 * stores share. A session's items share one partition (`<family>#<sessionId>`, sk `<kind>#<id>`), so every
 * per-session read is a strongly consistent Query and "another session's id" is simply another key. The partition
 * also holds a counter item (sk `COUNT`, attribute `n`) that creates and deletes change in the same transaction as
 * the item: the cap is a condition on it, so two racing creates cannot both pass the last free place. A store may
 * keep companion items in the partition too (a template's name lock), written and removed in those transactions.
 */
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AppError, ConflictError, NotFoundError } from '#shared/errors/app-error.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import {
  cancellationCodes,
  copy,
  deletePartition,
  failedAt,
  getItem,
  type Item,
  isConditionFailed,
  putNew,
  queryAll,
  sessionExistsCheck,
  setExpression,
} from './dynamodb-support.js';

/** A record of a session; a plain data type, so it spreads into an item. */
type Scoped = Item & {
  id: string;
  sessionId: string;
};

export interface ScopedItemsSpec<T extends Scoped> {
  /** The partition prefix (`WEBHOOKS`) and the sort-key prefix of an item (`WEBHOOK`). */
  family: string;
  kind: string;
  /** What a record is called in errors ("webhook"). */
  what: string;
  /** The record as read from an item; the key and index attributes are left out. */
  fromItem(item: Item): T;
  /** Index attributes an item carries besides the record (none when the family is only read per session). */
  indexAttributes?(record: T): Item;
  limitReached(max: number): AppError;
}

/**
 * A further write in the transaction of a create or delete: the lock item that keeps an attribute unique (a
 * template's name), written and removed with its record. `conflict` is the error its failed condition means.
 */
export interface CompanionWrite {
  write: TransactItems[number];
  conflict?(): AppError;
}

const COUNTER_SK = 'COUNT';
/** Attempts of a transaction that DynamoDB cancels because another one was changing the counter at that moment. */
const MAX_ATTEMPTS = 5;

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

/** The error of the first companion (at transaction index `from` on) whose condition failed, if any. */
function companionConflict(
  codes: readonly string[] | null,
  from: number,
  companions: readonly CompanionWrite[],
): AppError | undefined {
  const index = companions.findIndex((_companion, i) => failedAt(codes, from + i));
  return index < 0 ? undefined : companions[index]?.conflict?.();
}

export class DynamoDbScopedItems<T extends Scoped> {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly spec: ScopedItemsSpec<T>,
  ) {}

  /** The item key of a record. */
  key(sessionId: string, id: string): { pk: string; sk: string } {
    return { pk: this.partition(sessionId), sk: `${this.spec.kind}#${id}` };
  }

  /**
   * One transaction: the session exists, the counter is below the cap (any value when the cap is 0) and goes up,
   * the item is new, and the companions' conditions hold. Which condition failed decides the error.
   */
  async create(record: T, cap: PerSessionCap, companions: readonly CompanionWrite[] = []): Promise<void> {
    const counter = {
      Update: {
        TableName: this.table,
        Key: { pk: this.partition(record.sessionId), sk: COUNTER_SK },
        UpdateExpression: 'ADD #n :one',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: {
          ':one': 1,
          ...(cap.maxPerSession > 0 ? { ':max': cap.maxPerSession } : {}),
        },
        ...(cap.maxPerSession > 0 ? { ConditionExpression: 'attribute_not_exists(#n) OR #n < :max' } : {}),
      },
    };
    const item: Item = {
      ...copy(record),
      ...this.key(record.sessionId, record.id),
      ...(this.spec.indexAttributes?.(record) ?? {}),
    };
    try {
      await this.transact([
        sessionExistsCheck(this.table, record.sessionId),
        counter,
        putNew(this.table, item),
        ...companions.map((companion) => companion.write),
      ]);
    } catch (error) {
      const codes = cancellationCodes(error);
      if (failedAt(codes, 0))
        throw new NotFoundError(`Session ${record.sessionId} not found`, { cause: error });
      if (failedAt(codes, 1)) throw this.spec.limitReached(cap.maxPerSession);
      if (failedAt(codes, 2))
        throw new ConflictError('CONFLICT', `A ${this.spec.what} with this id already exists`);
      throw companionConflict(codes, 3, companions) ?? error;
    }
  }

  async find(sessionId: string, id: string): Promise<T | null> {
    const item = await getItem(this.doc, this.table, this.key(sessionId, id));
    return item ? this.spec.fromItem(item) : null;
  }

  /** The session's records, in no particular order (callers sort). */
  async listBySession(sessionId: string): Promise<T[]> {
    const items = await queryAll(this.doc, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :kind)',
      ExpressionAttributeValues: { ':pk': this.partition(sessionId), ':kind': `${this.spec.kind}#` },
      ConsistentRead: true,
    });
    return items.map(this.spec.fromItem);
  }

  /** Sets the given attributes on an existing record; the record as written, or null when it does not exist. */
  async update(sessionId: string, id: string, changes: Record<string, unknown>): Promise<T | null> {
    if (Object.keys(changes).length === 0) return this.find(sessionId, id);
    try {
      const result = await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: this.key(sessionId, id),
          ...setExpression(changes),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes ? this.spec.fromItem(result.Attributes) : null;
    } catch (error) {
      if (isConditionFailed(error)) return null;
      throw error;
    }
  }

  /**
   * Deletes the record and counts it down in one transaction, with the companions' writes; false when it did not
   * exist, or when an attribute of `unchanged` no longer has the value given (the caller read it, and re-reads).
   */
  async delete(
    sessionId: string,
    id: string,
    { unchanged = {}, companions = [] }: { unchanged?: Item; companions?: readonly CompanionWrite[] } = {},
  ): Promise<boolean> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const conditions = ['attribute_exists(pk)'];
    Object.entries(unchanged).forEach(([field, value], index) => {
      names[`#e${index}`] = field;
      values[`:e${index}`] = value;
      conditions.push(`#e${index} = :e${index}`);
    });
    try {
      await this.transact([
        {
          Delete: {
            TableName: this.table,
            Key: this.key(sessionId, id),
            ConditionExpression: conditions.join(' AND '),
            ...(conditions.length > 1
              ? { ExpressionAttributeNames: names, ExpressionAttributeValues: values }
              : {}),
          },
        },
        {
          Update: {
            TableName: this.table,
            Key: { pk: this.partition(sessionId), sk: COUNTER_SK },
            UpdateExpression: 'ADD #n :minusOne',
            ExpressionAttributeNames: { '#n': 'n' },
            ExpressionAttributeValues: { ':minusOne': -1 },
          },
        },
        ...companions.map((companion) => companion.write),
      ]);
      return true;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (failedAt(codes, 0)) return false;
      throw companionConflict(codes, 2, companions) ?? error;
    }
  }

  /** Deletes the whole partition (records, counter, companions); answers how many records there were. */
  async deleteBySession(sessionId: string): Promise<number> {
    const sortKeys = await deletePartition(this.doc, this.table, this.partition(sessionId));
    return sortKeys.filter((sk) => sk.startsWith(`${this.spec.kind}#`)).length;
  }

  /**
   * Sends a transaction, and again after a short pause while DynamoDB cancels it only because a concurrent
   * transaction held the same counter (code TransactionConflict): creates racing for one session's last places are
   * then judged one after the other instead of failing as unavailable.
   */
  private async transact(items: TransactItems): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.doc.send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (error) {
        const codes = cancellationCodes(error);
        const conflictOnly =
          codes?.includes('TransactionConflict') && !codes.includes('ConditionalCheckFailed');
        if (!conflictOnly || attempt >= MAX_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
      }
    }
  }

  private partition(sessionId: string): string {
    return `${this.spec.family}#${sessionId}`;
  }
}
