/**
 * Teardown fences in DynamoDB: one item per name. TTL removes settled fences eventually; `isActive` compares the
 * stored expiry itself because TTL deletion runs late (and never in DynamoDB Local).
 */
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TeardownFenceStore } from '#shared/ports/session-store.port.js';
import { getItem, guard } from './dynamodb-support.js';

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
      const expiresAt = (await getItem(this.doc, this.table, key(name)))?.expiresAt;
      return typeof expiresAt === 'string' && Date.parse(expiresAt) > now.getTime();
    });
  }
}
