/**
 * Identity aliases in the data table, one partition per session (`IDENT#<sessionId>`): `LID#<lid>` holds the LID's
 * phone, and `PN#<phone>#<lid>` lets a phone's LIDs be read with one Query. Both are written in one transaction;
 * a LID that moved to another phone loses its old `PN#` item in the same transaction.
 */
import { type DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { IdentityAlias, IdentityAliasPage, IdentityStore } from '#shared/ports/identity-store.port.js';
import { deletePartition, getItem, guard } from './dynamodb-support.js';

const STORE = 'Data store';
const partition = (sessionId: string) => `IDENT#${sessionId}`;
const lidKey = (sessionId: string, lid: string) => ({ pk: partition(sessionId), sk: `LID#${lid}` });
const phoneKey = (sessionId: string, phone: string, lid: string) => ({
  pk: partition(sessionId),
  sk: `PN#${phone}#${lid}`,
});

export class DynamoDbIdentityStore implements IdentityStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  link(sessionId: string, alias: IdentityAlias): Promise<void> {
    return guard(STORE, async () => {
      const current = await this.phoneOf(sessionId, alias.lid);
      if (current === alias.phone) return;
      const moved =
        current === undefined
          ? []
          : [{ Delete: { TableName: this.table, Key: phoneKey(sessionId, current, alias.lid) } }];
      await this.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.table, Item: { ...lidKey(sessionId, alias.lid), phone: alias.phone } } },
            {
              Put: {
                TableName: this.table,
                Item: { ...phoneKey(sessionId, alias.phone, alias.lid), lid: alias.lid },
              },
            },
            ...moved,
          ],
        }),
      );
    });
  }

  aliasesOf(sessionId: string, id: string): Promise<string[]> {
    return guard(STORE, async () => {
      const phone = id.endsWith('@lid') ? await this.phoneOf(sessionId, id) : id;
      if (phone === undefined) return [];
      const result = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': partition(sessionId), ':prefix': `PN#${phone}#` },
          ConsistentRead: true,
        }),
      );
      const lids = (result.Items ?? []).map((item) => String(item.lid));
      return [phone, ...lids].filter((other) => other !== id).sort();
    });
  }

  list(sessionId: string, after: string | null, limit: number): Promise<IdentityAliasPage> {
    return guard(STORE, async () => {
      const result = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': partition(sessionId), ':prefix': 'LID#' },
          ExclusiveStartKey: after === null ? undefined : lidKey(sessionId, after),
          Limit: limit,
          ConsistentRead: true,
        }),
      );
      const aliases = (result.Items ?? []).map((item) => ({
        lid: String(item.sk).slice('LID#'.length),
        phone: String(item.phone),
      }));
      const last = aliases.at(-1);
      return { aliases, next: result.LastEvaluatedKey && last ? last.lid : null };
    });
  }

  deleteBySession(sessionId: string): Promise<void> {
    return guard(STORE, async () => {
      await deletePartition(this.doc, this.table, partition(sessionId));
    });
  }

  private async phoneOf(sessionId: string, lid: string): Promise<string | undefined> {
    const item = await getItem(this.doc, this.table, lidKey(sessionId, lid));
    return typeof item?.phone === 'string' ? item.phone : undefined;
  }
}
