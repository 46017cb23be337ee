/**
 * AuthStateStore on the filesystem: one SQLite file per session at `<authDir>/<sessionId>/auth.sqlite`, holding
 * the credentials document and the keys. One file per session keeps a session's state self-contained (wiping it is
 * removing a folder, moving it is copying one) and keeps a busy session from holding a lock that others wait on.
 *
 * Credentials and keys share the file on purpose: one WAL orders every write of the session, so a crash can only
 * ever lose a suffix of them, never credentials without the keys written before. WAL with `synchronous = NORMAL`
 * (set by openSqlite) survives a killed process; only an OS crash or power loss can drop the last commits.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { UnavailableError } from '#shared/errors/app-error.js';
import {
  type AuthKeyChange,
  type AuthKeyValue,
  type AuthStateSnapshot,
  type AuthStateStore,
  assertAuthSessionId,
  assertCredentialsDocument,
  assertKeyChanges,
  assertKeyName,
} from '#shared/ports/auth-state-store.port.js';
import { type Migration, openSqlite, runMigrations, type SqliteDb } from './sqlite-database.js';
import { runSql } from './sqlite-store-support.js';

const STORE = 'Auth-state store';

/** File name inside each session folder. */
export const AUTH_STATE_FILE = 'auth.sqlite';

/**
 * Schema of a session file. The CHECKs make the table refuse anything but text even if a caller slipped past
 * validation, since better-sqlite3 would otherwise store a Buffer as a BLOB and hand back a Buffer.
 */
export const AUTH_STATE_MIGRATIONS: readonly Migration[] = [
  {
    id: '0001_auth_state',
    up(db: SqliteDb): void {
      db.exec(`
        CREATE TABLE credentials (
          slot INTEGER PRIMARY KEY CHECK (slot = 1),
          document TEXT NOT NULL CHECK (typeof(document) = 'text')
        );
        CREATE TABLE auth_keys (
          category TEXT NOT NULL,
          id TEXT NOT NULL,
          value TEXT NOT NULL CHECK (typeof(value) = 'text'),
          PRIMARY KEY (category, id)
        );
      `);
    },
  },
];

/** An open session file with its statements, prepared once per connection. */
interface SessionDb {
  db: SqliteDb;
  selectCredentials: Database.Statement<[], { document: string }>;
  credentialsExist: Database.Statement<[], { present: number }>;
  upsertCredentials: Database.Statement<[string]>;
  /** Ids travel as one JSON array, so a single statement serves any number of them. */
  selectKeys: Database.Statement<[string, string], { id: string; value: string }>;
  selectAllKeys: Database.Statement<[], AuthKeyValue>;
  applyBatch: Database.Transaction<(changes: readonly AuthKeyChange[]) => void>;
}

/** Options of the SQLite auth-state store. */
export interface SqliteAuthStateStoreOptions {
  /**
   * SQLite page cache per open session, in KiB. Small on purpose: a host keeps one connection per running session
   * and the caching decorator answers hot reads, so a big page cache would mostly multiply memory.
   */
  pageCacheKiB?: number;
}

function prepareSession(db: SqliteDb): SessionDb {
  const upsertKey = db.prepare<[string, string, string]>(
    'INSERT INTO auth_keys (category, id, value) VALUES (?, ?, ?) ON CONFLICT (category, id) DO UPDATE SET value = excluded.value',
  );
  const deleteKey = db.prepare<[string, string]>('DELETE FROM auth_keys WHERE category = ? AND id = ?');
  return {
    db,
    selectCredentials: db.prepare('SELECT document FROM credentials WHERE slot = 1'),
    credentialsExist: db.prepare('SELECT EXISTS (SELECT 1 FROM credentials) AS present'),
    upsertCredentials: db.prepare(
      'INSERT INTO credentials (slot, document) VALUES (1, ?) ON CONFLICT (slot) DO UPDATE SET document = excluded.document',
    ),
    selectKeys: db.prepare(
      'SELECT id, value FROM auth_keys WHERE category = ? AND id IN (SELECT value FROM json_each(?))',
    ),
    selectAllKeys: db.prepare('SELECT category, id, value FROM auth_keys'),
    applyBatch: db.transaction((changes: readonly AuthKeyChange[]) => {
      for (const { category, id, value } of changes) {
        if (value === null) deleteKey.run(category, id);
        else upsertKey.run(category, id, value);
      }
    }),
  };
}

/** Auth state in one SQLite file per session under `authDir`, each connection opened on first use and kept. */
export class SqliteAuthStateStore implements AuthStateStore {
  private readonly sessions = new Map<string, SessionDb>();
  private readonly pageCacheKiB: number;
  private closed = false;

  constructor(
    private readonly authDir: string,
    options: SqliteAuthStateStoreOptions = {},
  ) {
    this.pageCacheKiB = options.pageCacheKiB ?? 512;
  }

  async readCredentials(sessionId: string): Promise<string | null> {
    const session = this.session(sessionId, false);
    if (session === undefined) return null;
    return runSql(STORE, () => session.selectCredentials.get()?.document ?? null);
  }

  async writeCredentials(sessionId: string, document: string): Promise<void> {
    this.checkOpen();
    assertAuthSessionId(sessionId);
    assertCredentialsDocument(document);
    const session = this.session(sessionId, true);
    runSql(STORE, () => session.upsertCredentials.run(document));
  }

  async hasCredentials(sessionId: string): Promise<boolean> {
    const session = this.session(sessionId, false);
    if (session === undefined) return false;
    return runSql(STORE, () => session.credentialsExist.get()?.present === 1);
  }

  async readKeys(sessionId: string, category: string, ids: readonly string[]): Promise<Map<string, string>> {
    const session = this.session(sessionId, false);
    assertKeyName(category, 'category');
    const found = new Map<string, string>();
    if (session === undefined || ids.length === 0) return found;
    const rows = runSql(STORE, () => session.selectKeys.all(category, JSON.stringify(ids)));
    for (const row of rows) found.set(row.id, row.value);
    return found;
  }

  async writeKeys(sessionId: string, changes: readonly AuthKeyChange[]): Promise<void> {
    this.checkOpen();
    assertAuthSessionId(sessionId);
    assertKeyChanges(changes);
    if (changes.length === 0) return;
    // A batch of deletes alone has nothing to delete in a file that does not exist; do not create one for it.
    const session = this.session(
      sessionId,
      changes.some((change) => change.value !== null),
    );
    if (session === undefined) return;
    // IMMEDIATE takes the write lock up front, so a second connection can never make the batch fail half-way
    // with SQLITE_BUSY on lock upgrade; a failure anywhere inside rolls the whole batch back.
    runSql(STORE, () => session.applyBatch.immediate(changes));
  }

  async readAll(sessionId: string): Promise<AuthStateSnapshot> {
    const session = this.session(sessionId, false);
    if (session === undefined) return { credentials: null, keys: [] };
    // One read transaction, so the keys and the credentials are of the same moment.
    return runSql(STORE, () =>
      session.db.transaction(() => ({
        credentials: session.selectCredentials.get()?.document ?? null,
        keys: session.selectAllKeys.all(),
      }))(),
    );
  }

  async wipe(sessionId: string): Promise<void> {
    this.checkOpen();
    assertAuthSessionId(sessionId);
    this.closeSession(sessionId);
    runSql(STORE, () => this.removeFolder(sessionId));
  }

  async release(sessionId: string): Promise<void> {
    this.checkOpen();
    assertAuthSessionId(sessionId);
    this.closeSession(sessionId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const sessionId of [...this.sessions.keys()]) this.closeSession(sessionId);
  }

  /**
   * The session's open connection, opening it on first use. With `create` false a missing file answers
   * undefined instead, so reads of an unknown or wiped session do not leave empty folders behind.
   */
  private session(sessionId: string, create: true): SessionDb;
  private session(sessionId: string, create: boolean): SessionDb | undefined;
  private session(sessionId: string, create: boolean): SessionDb | undefined {
    this.checkOpen();
    assertAuthSessionId(sessionId);
    const open = this.sessions.get(sessionId);
    if (open !== undefined) return open;
    const dir = path.join(this.authDir, sessionId);
    const file = path.join(dir, AUTH_STATE_FILE);
    if (!create && !fs.existsSync(file)) return undefined;
    const session = runSql(STORE, () => this.openFile(dir, file));
    this.sessions.set(sessionId, session);
    return session;
  }

  private openFile(dir: string, file: string): SessionDb {
    // Credentials are secrets: the folder is private and the file is created 0600 before SQLite opens it,
    // so its -wal and -shm companions (which SQLite creates with the main file's mode) are private too.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(file, 'a', 0o600));
    const db = openSqlite(file);
    try {
      db.pragma(`cache_size = -${Math.max(64, Math.floor(this.pageCacheKiB))}`);
      runMigrations(db, AUTH_STATE_MIGRATIONS);
      return prepareSession(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Renames the folder out of the way first (atomic), so a crash during the removal can never leave a half-deleted
   * state that a later open would read (a stray -wal replayed onto a fresh file, say). Tombstones start with a dot,
   * which no session id can, and any left by an earlier crash are removed on the next wipe of that session.
   */
  private removeFolder(sessionId: string): void {
    const tombstone = `.wiped-${sessionId}-`;
    try {
      fs.renameSync(path.join(this.authDir, sessionId), path.join(this.authDir, `${tombstone}${Date.now()}`));
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    }
    const entries = fs.existsSync(this.authDir) ? fs.readdirSync(this.authDir) : [];
    for (const entry of entries) {
      if (entry.startsWith(tombstone))
        fs.rmSync(path.join(this.authDir, entry), { recursive: true, force: true });
    }
  }

  private closeSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (session === undefined) return;
    this.sessions.delete(sessionId);
    // Closing checkpoints the WAL into the main file; a failure here still leaves every commit in the WAL.
    runSql(STORE, () => session.db.close());
  }

  private checkOpen(): void {
    if (this.closed) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', `${STORE} is unavailable`);
  }
}
