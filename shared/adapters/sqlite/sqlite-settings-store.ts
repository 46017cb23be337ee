/** SettingsStore in the data SQLite file: one row (migration 0018_runtime_settings), the overrides as JSON. */
import { parseOverrides } from '#shared/config/runtime-settings.js';
import type { SettingsStore, StoredSettings } from '#shared/ports/settings-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, runSql } from './sqlite-store-support.js';

const STORE = 'Data store';

/** The run-time settings' row. */
export class SqliteSettingsStore implements SettingsStore {
  private readonly select: LazyStatement<[], { overrides: string; updatedAt: string }>;
  private readonly upsert: LazyStatement<{ overrides: string; updatedAt: string }>;

  constructor(db: SqliteDb) {
    this.select = new LazyStatement(
      db,
      'SELECT overrides, updated_at AS updatedAt FROM runtime_settings WHERE id = 1',
    );
    this.upsert = new LazyStatement(
      db,
      `INSERT INTO runtime_settings (id, overrides, updated_at) VALUES (1, @overrides, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET overrides = excluded.overrides, updated_at = excluded.updated_at`,
    );
  }

  async read(): Promise<StoredSettings> {
    const row = runSql(STORE, () => this.select.get());
    if (!row) return { overrides: {}, updatedAt: null };
    return { overrides: parseOverrides(JSON.parse(row.overrides)), updatedAt: row.updatedAt };
  }

  async write(settings: StoredSettings & { updatedAt: string }): Promise<void> {
    runSql(STORE, () =>
      this.upsert.run({ overrides: JSON.stringify(settings.overrides), updatedAt: settings.updatedAt }),
    );
  }
}
