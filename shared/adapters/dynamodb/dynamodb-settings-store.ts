/** SettingsStore on the data table: one item, pk `SETTINGS` sk `RUNTIME`, the overrides as JSON in `v`. */
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { parseOverrides } from '#shared/config/runtime-settings.js';
import type { SettingsStore, StoredSettings } from '#shared/ports/settings-store.port.js';
import { guard } from './dynamodb-support.js';

const STORE = 'Data store';
const KEY = { pk: 'SETTINGS', sk: 'RUNTIME' };

/** The run-time settings' item. */
export class DynamoDbSettingsStore implements SettingsStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  read(): Promise<StoredSettings> {
    return guard(STORE, async () => {
      // Strongly consistent: a process that refreshes right after a save elsewhere sees it.
      const { Item } = await this.doc.send(
        new GetCommand({ TableName: this.table, Key: KEY, ConsistentRead: true }),
      );
      if (!Item) return { overrides: {}, updatedAt: null };
      return { overrides: parseOverrides(JSON.parse(String(Item.v))), updatedAt: String(Item.updatedAt) };
    });
  }

  write(settings: StoredSettings & { updatedAt: string }): Promise<void> {
    return guard(STORE, async () => {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...KEY, v: JSON.stringify(settings.overrides), updatedAt: settings.updatedAt },
        }),
      );
    });
  }
}
