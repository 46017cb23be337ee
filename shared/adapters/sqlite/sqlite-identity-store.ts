/** IdentityStore over the data SQLite file: one row per (session, LID), found by phone through an index. */
import type { IdentityAlias, IdentityAliasPage, IdentityStore } from '#shared/ports/identity-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, runSql } from './sqlite-store-support.js';

const STORE = 'Identity store';

export class SqliteIdentityStore implements IdentityStore {
  private readonly upsert: LazyStatement<[string, string, string]>;
  private readonly phoneOf: LazyStatement<[string, string], { phone: string }>;
  private readonly lidsOf: LazyStatement<[string, string], { lid: string }>;
  private readonly deleteBySessionId: LazyStatement<[string]>;
  private readonly page: LazyStatement<[string, string, number], IdentityAlias>;

  constructor(db: SqliteDb) {
    this.upsert = new LazyStatement(
      db,
      `INSERT INTO identity_aliases (session_id, lid, phone) VALUES (?, ?, ?)
       ON CONFLICT (session_id, lid) DO UPDATE SET phone = excluded.phone`,
    );
    this.phoneOf = new LazyStatement(
      db,
      'SELECT phone FROM identity_aliases WHERE session_id = ? AND lid = ?',
    );
    this.lidsOf = new LazyStatement(
      db,
      'SELECT lid FROM identity_aliases WHERE session_id = ? AND phone = ?',
    );
    this.page = new LazyStatement(
      db,
      'SELECT lid, phone FROM identity_aliases WHERE session_id = ? AND lid > ? ORDER BY lid LIMIT ?',
    );
    this.deleteBySessionId = new LazyStatement(db, 'DELETE FROM identity_aliases WHERE session_id = ?');
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

  async list(sessionId: string, after: string | null, limit: number): Promise<IdentityAliasPage> {
    return runSql(STORE, () => {
      const aliases = this.page.all(sessionId, after ?? '', limit).map(({ lid, phone }) => ({ lid, phone }));
      return { aliases, next: aliases.length < limit ? null : (aliases.at(-1)?.lid ?? null) };
    });
  }

  async deleteBySession(sessionId: string): Promise<void> {
    runSql(STORE, () => this.deleteBySessionId.run(sessionId));
  }
}
