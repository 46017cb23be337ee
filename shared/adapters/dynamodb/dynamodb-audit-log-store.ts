/**
 * The audit log in DynamoDB. Each entry is its own item (a known id is skipped by condition); gsi1 orders every
 * entry by time and gsi2 the entries of one session, so a `sessionId` query reads only that session. The other
 * filters (action, severity, apiKeyId, a scope of several sessions) are filter expressions over the time index;
 * the log is bounded by pruneOlderThan (retention), and these are operator queries, not hot paths.
 */
import {
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '#shared/domain/audit.js';
import type { Page } from '#shared/domain/common.js';
import type { AuditFilter, AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import {
  cancellationCodes,
  chunks,
  copy,
  guard,
  type Item,
  putNew,
  queryOffset,
  queryPage,
} from './dynamodb-support.js';

const STORE = 'Main store';
/** Items per transaction: DynamoDB allows 100 actions per TransactWriteItems. */
const TRANSACTION_SIZE = 100;

const entryKey = (id: string) => ({ pk: `AUDIT#${id}`, sk: 'AUDIT' });

const FIELDS = [
  'id',
  'action',
  'severity',
  'apiKeyId',
  'apiKeyName',
  'sessionId',
  'sessionName',
  'ipAddress',
  'userAgent',
  'method',
  'path',
  'statusCode',
  'metadata',
  'errorMessage',
  'createdAt',
] as const satisfies readonly (keyof AuditEntry)[];

function toEntry(item: Item): AuditEntry {
  const entry: Record<string, unknown> = {};
  for (const field of FIELDS) entry[field] = item[field] ?? null;
  const metadata = entry.metadata;
  entry.metadata =
    metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadata : null;
  return entry as AuditEntry;
}

/** AuditLogStore on the main table. */
export class DynamoDbAuditLogStore implements AuditLogStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Appends in transactions of up to 100 conditional puts. An entry whose id is stored already fails its condition,
   * which cancels its transaction: the transaction is sent again without the entries the cancellation names.
   */
  append(entries: readonly AuditEntry[]): Promise<void> {
    return guard(STORE, async () => {
      // One transaction may not name an item twice: the first entry of an id stands, as across batches.
      const seen = new Set<string>();
      const unique = entries.filter((entry) => !seen.has(entry.id) && seen.add(entry.id));
      for (const chunk of chunks(unique, TRANSACTION_SIZE)) await this.putNew(chunk);
    });
  }

  private async putNew(entries: readonly AuditEntry[]): Promise<void> {
    let pending = entries;
    while (pending.length > 0) {
      try {
        await this.doc.send(
          new TransactWriteCommand({ TransactItems: pending.map((entry) => this.put(entry)) }),
        );
        return;
      } catch (error) {
        const codes = cancellationCodes(error);
        if (!codes?.includes('ConditionalCheckFailed')) throw error;
        pending = pending.filter((_, index) => codes[index] !== 'ConditionalCheckFailed');
      }
    }
  }

  private put(entry: AuditEntry) {
    const order = `${entry.createdAt}#${entry.id}`;
    const item: Item = { ...copy(entry), ...entryKey(entry.id), gsi1pk: 'AUDIT', gsi1sk: order };
    if (entry.sessionId !== null)
      Object.assign(item, { gsi2pk: `AUDITSESSION#${entry.sessionId}`, gsi2sk: order });
    return putNew(this.table, item);
  }

  query(filter: AuditFilter, page: Page): Promise<{ data: AuditEntry[]; total: number }> {
    return guard(STORE, async () => {
      if (filter.sessionIds?.length === 0) return { data: [], total: 0 };
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = {};
      const conditions: string[] = [];
      const equals = (field: string, value: string | undefined) => {
        if (value === undefined) return;
        names[`#${field}`] = field;
        values[`:${field}`] = value;
        conditions.push(`#${field} = :${field}`);
      };
      equals('action', filter.action);
      equals('severity', filter.severity);
      equals('apiKeyId', filter.apiKeyId);
      if (filter.sessionIds) {
        names['#sessionId'] = 'sessionId';
        const placeholders = filter.sessionIds.map((sessionId, index) => {
          values[`:scope${index}`] = sessionId;
          return `:scope${index}`;
        });
        conditions.push(`#sessionId IN (${placeholders.join(', ')})`);
      }
      const bySession = filter.sessionId !== undefined;
      values[':pk'] = bySession ? `AUDITSESSION#${filter.sessionId}` : 'AUDIT';
      const input: QueryCommandInput = {
        TableName: this.table,
        IndexName: bySession ? 'gsi2' : 'gsi1',
        KeyConditionExpression: bySession ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
      };
      if (conditions.length > 0) {
        input.FilterExpression = conditions.join(' AND ');
        input.ExpressionAttributeNames = names;
      }
      const { items, total } = await queryPage(this.doc, input, page);
      return { data: items.map(toEntry), total };
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
          ExpressionAttributeValues: { ':pk': 'AUDIT', ':cutoff': cutoff.toISOString() },
          ProjectionExpression: 'id',
          Limit: limit,
        },
        { offset: 0, limit },
      );
      // Deleting through transactions of 100 keeps this simple; prune runs rarely and in the background.
      for (const chunk of chunks(old, TRANSACTION_SIZE)) {
        await this.doc.send(
          new TransactWriteCommand({
            TransactItems: chunk.map((item) => ({
              Delete: { TableName: this.table, Key: entryKey(String(item.id)) },
            })),
          }),
        );
      }
      return old.length;
    });
  }
}
