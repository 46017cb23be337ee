/**
 * Delivery failures in DynamoDB. A record's partition is its idempotency key (pk `WHFAILKEY#<key>`, sk
 * `WHFAIL#<id>`), because clearing a key after a later success runs on every successful delivery and must be one
 * small consistent Query; ids are random UUIDs, and a retried insert lands in the same partition, where the
 * condition catches it. gsi1 (`WHFAILS`) orders every record by time (listing, retention) and gsi2
 * (`WHFAILSESSION#<sessionId>`) one session's; both sks `<createdAt>#<id>`.
 */
import { type DynamoDBDocumentClient, PutCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '#shared/domain/common.js';
import type { DeliveryFailure } from '#shared/domain/webhook.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  DELIVERY_FAILURE_FIELDS,
  type DeliveryFailureFilter,
  type DeliveryFailureStore,
} from '#shared/ports/delivery-failure-store.port.js';
import {
  batchDelete,
  copy,
  guard,
  type Item,
  isConditionFailed,
  queryAll,
  queryOffset,
} from './dynamodb-support.js';

const STORE = 'Data store';
const ALL_FAILURES = 'WHFAILS';

const failureKey = (failure: Pick<DeliveryFailure, 'id' | 'idempotencyKey'>) => ({
  pk: `WHFAILKEY#${failure.idempotencyKey}`,
  sk: `WHFAIL#${failure.id}`,
});

function toFailure(item: Item): DeliveryFailure {
  const failure: Record<string, unknown> = {};
  for (const field of DELIVERY_FAILURE_FIELDS) failure[field] = item[field] ?? null;
  return failure as DeliveryFailure;
}

/** The primary keys of the items a query found (the GSIs project every attribute, keys included). */
function keysOf(items: Item[]): Record<string, string>[] {
  return items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
}

/** DeliveryFailureStore on the data table. */
export class DynamoDbDeliveryFailureStore implements DeliveryFailureStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  insert(failure: DeliveryFailure): Promise<void> {
    return guard(STORE, async () => {
      const order = `${failure.createdAt}#${failure.id}`;
      const item = {
        ...copy(failure),
        ...failureKey(failure),
        gsi1pk: ALL_FAILURES,
        gsi1sk: order,
        gsi2pk: `WHFAILSESSION#${failure.sessionId}`,
        gsi2sk: order,
      };
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.table,
            Item: item,
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if (isConditionFailed(error)) {
          throw new ConflictError('CONFLICT', 'A delivery failure with this id already exists');
        }
        throw error;
      }
    });
  }

  list(filter: DeliveryFailureFilter, page: Page): Promise<DeliveryFailure[]> {
    return guard(STORE, async () => {
      const bySession = filter.sessionId !== undefined;
      const input: QueryCommandInput = {
        TableName: this.table,
        IndexName: bySession ? 'gsi2' : 'gsi1',
        KeyConditionExpression: bySession ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': bySession ? `WHFAILSESSION#${filter.sessionId}` : ALL_FAILURES },
        ScanIndexForward: false,
      };
      return (await queryOffset(this.doc, input, page)).map(toFailure);
    });
  }

  deleteByIdempotencyKey(idempotencyKey: string): Promise<number> {
    return guard(STORE, async () => {
      const items = await queryAll(this.doc, {
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WHFAILKEY#${idempotencyKey}` },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      });
      await batchDelete(this.doc, this.table, keysOf(items));
      return items.length;
    });
  }

  pruneOlderThan(cutoff: Date, limit: number): Promise<number> {
    return guard(STORE, async () => {
      // By time on gsi1, oldest first (not DynamoDB TTL: the retention is a setting that may change after a write).
      const old = await queryOffset(
        this.doc,
        {
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :cutoff',
          ExpressionAttributeValues: { ':pk': ALL_FAILURES, ':cutoff': cutoff.toISOString() },
          ProjectionExpression: 'pk, sk',
          Limit: limit,
        },
        { offset: 0, limit },
      );
      await batchDelete(this.doc, this.table, keysOf(old));
      return old.length;
    });
  }
}
