/**
 * Teardown fences in DynamoDB: one item per name. TTL removes settled fences eventually; `isActive` compares the
 * stored expiry itself because TTL deletion runs late (and never in DynamoDB Local).
 */
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TeardownFenceStore } from '#shared/ports/session-store.port.js';
import { guard } from './dynamodb-support.js';

const STORE = 'Data store';
const key = (name: string) => ({ pk: `FENCE#${name}`, sk: 'FENCE' });

/** TeardownFenceStore on the data table. */
export class DynamoDbTeardownFenceStore implements TeardownFenceStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  put(name: string, expiresAt: Date): Promise<void> {
    return guard(STORE, async () => {
      const ttl = Math.ceil(expiresAt.getTime() / 1000);
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...key(name), expiresAt: expiresAt.toISOString(), ttl },
        }),
      );
    });
  }

  clear(name: string): Promise<void> {
    return guard(STORE, async () => {
      await this.doc.send(new DeleteCommand({ TableName: this.table, Key: key(name) }));
    });
  }

  isActive(name: string, now: Date): Promise<boolean> {
    return guard(STORE, async () => {
      const result = await this.doc.send(
        new GetCommand({ TableName: this.table, Key: key(name), ConsistentRead: true }),
      );
      const expiresAt = result.Item?.expiresAt;
      return typeof expiresAt === 'string' && Date.parse(expiresAt) > now.getTime();
    });
  }
}
