/** TeardownFenceStore over the data SQLite file: one row per session name, replaced on every put. */
import type { TeardownFenceStore } from '#shared/ports/session-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, runSql } from './sqlite-store-support.js';

const STORE = 'Teardown fence store';

/** Fences in SQLite; a fence is active while its expiry is later than `now`. */
export class SqliteTeardownFenceStore implements TeardownFenceStore {
  private readonly upsert: LazyStatement<[string, string]>;
  private readonly deleteByName: LazyStatement<[string]>;
  private readonly selectActive: LazyStatement<[string, string], number>;

  constructor(db: SqliteDb) {
    this.upsert = new LazyStatement(
      db,
      `INSERT INTO teardown_fences (name, expires_at) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET expires_at = excluded.expires_at`,
    );
    this.deleteByName = new LazyStatement(db, 'DELETE FROM teardown_fences WHERE name = ?');
    this.selectActive = new LazyStatement<[string, string], number>(
      db,
      'SELECT 1 FROM teardown_fences WHERE name = ? AND expires_at > ?',
      true,
    );
  }

  async put(name: string, expiresAt: Date): Promise<void> {
    runSql(STORE, () => this.upsert.run(name, expiresAt.toISOString()));
  }

  async clear(name: string): Promise<void> {
    runSql(STORE, () => this.deleteByName.run(name));
  }

  async isActive(name: string, now: Date): Promise<boolean> {
    return runSql(STORE, () => this.selectActive.get(name, now.toISOString()) !== undefined);
  }
}
