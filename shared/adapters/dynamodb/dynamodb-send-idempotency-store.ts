/**
 * Idempotency keys of sends in the data table: one item per key, pk `SENDKEYS#<sessionId>` (one partition per
 * session, so session delete is one Query), sk `KEY#<key>`. A claim is one conditional put (no item, or one that has
 * expired), so of two racing claims exactly one passes; `ttl` lets DynamoDB remove expired keys, and claims never
 * rely on TTL having run.
 */
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  idempotencyExpiredBy,
  type NewSendKey,
  SEND_IDEMPOTENCY_TTL_MS,
  type SendIdempotencyClaim,
  type SendIdempotencyStore,
  type StoredSendKey,
} from '#shared/ports/send-idempotency-store.port.js';
import {
  deletePartition,
  getItem,
  guard,
  type Item,
  isConditionFailed,
  partitionQuery,
  queryPages,
} from './dynamodb-support.js';

const STORE = 'Data store';
/** Claims tried when the standing key vanishes between a refused put and its read (released, or the session gone). */
const CLAIM_ATTEMPTS = 3;

const partition = (sessionId: string) => `SENDKEYS#${sessionId}`;
const itemKey = (sessionId: string, key: string) => ({ pk: partition(sessionId), sk: `KEY#${key}` });

/** SendIdempotencyStore on the data table. */
export class DynamoDbSendIdempotencyStore implements SendIdempotencyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  claim({ sessionId, key, requestHash, messageId }: NewSendKey, now: Date): Promise<SendIdempotencyClaim> {
    return guard(STORE, async () => {
      const createdAt = now.toISOString();
      const ttl = Math.ceil((now.getTime() + SEND_IDEMPOTENCY_TTL_MS) / 1000);
      for (let attempt = 1; ; attempt++) {
        try {
          await this.doc.send(
            new PutCommand({
              TableName: this.table,
              Item: { ...itemKey(sessionId, key), requestHash, messageId, createdAt, ttl },
              ConditionExpression: 'attribute_not_exists(pk) OR createdAt <= :expiredBy',
              ExpressionAttributeValues: { ':expiredBy': idempotencyExpiredBy(now) },
            }),
          );
          return { claimed: true };
        } catch (error) {
          if (!isConditionFailed(error) || attempt >= CLAIM_ATTEMPTS) throw error;
        }
        const standing = await getItem(this.doc, this.table, itemKey(sessionId, key));
        if (standing) {
          const existing = {
            requestHash: String(standing.requestHash),
            messageId: String(standing.messageId),
            createdAt: String(standing.createdAt),
          };
          return { claimed: false, existing };
        }
      }
    });
  }

  listBySession(
    sessionId: string,
    page: { now: Date; afterKey: string | null; limit: number },
  ): Promise<StoredSendKey[]> {
    return guard(STORE, async () => {
      const query = partitionQuery(this.table, partition(sessionId));
      const keys: StoredSendKey[] = [];
      // TTL removes expired keys some time after they expire: the filter leaves those it has not removed yet.
      for await (const result of queryPages(this.doc, {
        ...query,
        FilterExpression: 'createdAt > :expiredBy',
        ExpressionAttributeValues: {
          ...query.ExpressionAttributeValues,
          ':expiredBy': idempotencyExpiredBy(page.now),
        },
        ...(page.afterKey === null ? {} : { ExclusiveStartKey: itemKey(sessionId, page.afterKey) }),
      })) {
        for (const item of (result.Items ?? []) as Item[]) {
          keys.push({
            sessionId,
            key: String(item.sk).slice('KEY#'.length),
            requestHash: String(item.requestHash),
            messageId: String(item.messageId),
            createdAt: String(item.createdAt),
          });
        }
        if (keys.length >= page.limit) break;
      }
      return keys.slice(0, page.limit);
    });
  }

  release(sessionId: string, key: string, messageId: string): Promise<boolean> {
    return guard(STORE, async () => {
      try {
        await this.doc.send(
          new DeleteCommand({
            TableName: this.table,
            Key: itemKey(sessionId, key),
            ConditionExpression: 'messageId = :messageId',
            ExpressionAttributeValues: { ':messageId': messageId },
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
    return guard(
      STORE,
      async () => (await deletePartition(this.doc, this.table, partition(sessionId))).length,
    );
  }
}
