/** The data store's migrations for operations (issue 39): the run-time settings. They run after the statistics'. */
import type { Migration, SqliteDb } from './sqlite-database.js';

export const OPERATIONS_MIGRATIONS: Migration[] = [
  {
    id: '0018_runtime_settings',
    up(db: SqliteDb): void {
      // One row: the overrides of the run-time settings (shared/config/runtime-settings.ts) as a JSON object.
      db.exec(`
        CREATE TABLE runtime_settings (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          overrides TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
      `);
    },
  },
];
