/** IdentityStore over the data SQLite file: one row per (session, LID), found by phone through an index. */
import type Database from 'better-sqlite3';
import type { IdentityAlias, IdentityStore } from '#shared/ports/identity-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { runSql } from './sqlite-store-support.js';

const STORE = 'Identity store';

export class SqliteIdentityStore implements IdentityStore {
  private readonly upsert: Database.Statement<[string, string, string]>;
  private readonly phoneOf: Database.Statement<[string, string], { phone: string }>;
  private readonly lidsOf: Database.Statement<[string, string], { lid: string }>;
  private readonly deleteBySessionId: Database.Statement<[string]>;

  constructor(db: SqliteDb) {
    this.upsert = db.prepare(
      `INSERT INTO identity_aliases (session_id, lid, phone) VALUES (?, ?, ?)
       ON CONFLICT (session_id, lid) DO UPDATE SET phone = excluded.phone`,
    );
    this.phoneOf = db.prepare('SELECT phone FROM identity_aliases WHERE session_id = ? AND lid = ?');
    this.lidsOf = db.prepare('SELECT lid FROM identity_aliases WHERE session_id = ? AND phone = ?');
    this.deleteBySessionId = db.prepare('DELETE FROM identity_aliases WHERE session_id = ?');
  }

  async link(sessionId: string, alias: IdentityAlias): Promise<void> {
    runSql(STORE, () => this.upsert.run(sessionId, alias.lid, alias.phone));
  }

  async aliasesOf(sessionId: string, id: string): Promise<string[]> {
    return runSql(STORE, () => {
      const phone = id.endsWith('@lid') ? this.phoneOf.get(sessionId, id)?.phone : id;
      if (phone === undefined) return [];
      const lids = this.lidsOf.all(sessionId, phone).map((row) => row.lid);
      return [phone, ...lids].filter((other) => other !== id).sort();
    });
  }

  async deleteBySession(sessionId: string): Promise<void> {
    runSql(STORE, () => this.deleteBySessionId.run(sessionId));
  }
}
