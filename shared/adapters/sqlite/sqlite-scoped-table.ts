/**
 * A table of records owned by a session (webhooks, automation rules, templates): the part their SQLite stores
 * share. Every statement is scoped by `session_id`, so another session's id is never found. Creating counts the
 * session's rows and inserts in one IMMEDIATE transaction, which makes the per-session cap hold across processes
 * sharing the file; an update reads, merges and writes the row in one as well.
 */
import type Database from 'better-sqlite3';
import { applyPatch } from '#shared/adapters/patch-support.js';
import { type AppError, ConflictError, NotFoundError } from '#shared/errors/app-error.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { isForeignKeyViolation, LazyStatement, runSql } from './sqlite-store-support.js';

interface Scoped {
  id: string;
  sessionId: string;
}

interface ScopedRow {
  id: string;
  session_id: string;
}

export interface ScopedTableSpec<T extends Scoped, Row extends ScopedRow> {
  table: string;
  /** The store's name in errors. */
  store: string;
  /** What a record is called in errors ("webhook"). */
  what: string;
  /** Every column, in the order of the row type; the SQL is written from it. */
  columns: readonly (keyof Row & string)[];
  toRow(record: T): Row;
  fromRow(row: Row): T;
  /** ORDER BY of listBySession, matching the table's session index. */
  order: string;
  limitReached(max: number): AppError;
  /**
   * The error for a violated UNIQUE constraint of the table's own (a name per session) on `target` (`table.column`),
   * given what was written: the whole record on create, the patch on update. Undefined leaves the default
   * (a taken id on create, a generic conflict on update).
   */
  conflictOn?(target: string, written: Partial<T>): AppError | undefined;
}

type CreateFn<T> = (record: T, cap: PerSessionCap) => void;
type UpdateFn<T> = (sessionId: string, id: string, change: (current: T) => T) => T | null;

export class SqliteScopedTable<T extends Scoped, Row extends ScopedRow> {
  private readonly insertRow: LazyStatement<[Row]>;
  private readonly countBySession: LazyStatement<[string], number>;
  private readonly selectOne: LazyStatement<[string, string], Row>;
  private readonly selectBySession: LazyStatement<[string], Row>;
  private readonly updateRow: LazyStatement<[Row]>;
  private readonly deleteOne: LazyStatement<[string, string]>;
  private readonly deleteBySessionId: LazyStatement<[string]>;
  private readonly createTx: Database.Transaction<CreateFn<T>>;
  private readonly updateTx: Database.Transaction<UpdateFn<T>>;

  constructor(
    db: SqliteDb,
    private readonly spec: ScopedTableSpec<T, Row>,
  ) {
    const { table, columns } = spec;
    const placeholders = columns.map((column) => `@${column}`).join(', ');
    this.insertRow = new LazyStatement(
      db,
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders})`,
    );
    this.countBySession = new LazyStatement<[string], number>(
      db,
      `SELECT COUNT(*) FROM ${table} WHERE session_id = ?`,
      true,
    );
    this.selectOne = new LazyStatement(db, `SELECT * FROM ${table} WHERE session_id = ? AND id = ?`);
    this.selectBySession = new LazyStatement(
      db,
      `SELECT * FROM ${table} WHERE session_id = ? ORDER BY ${spec.order}`,
    );
    // Identity and ownership never change, whatever the merged row says.
    const sets = columns.filter((column) => column !== 'id' && column !== 'session_id');
    this.updateRow = new LazyStatement(
      db,
      `UPDATE ${table} SET ${sets.map((column) => `${column} = @${column}`).join(', ')}
       WHERE session_id = @session_id AND id = @id`,
    );
    this.deleteOne = new LazyStatement(db, `DELETE FROM ${table} WHERE session_id = ? AND id = ?`);
    this.deleteBySessionId = new LazyStatement(db, `DELETE FROM ${table} WHERE session_id = ?`);
    this.createTx = db.transaction((record: T, cap: PerSessionCap) => {
      if (cap.maxPerSession > 0 && (this.countBySession.get(record.sessionId) ?? 0) >= cap.maxPerSession) {
        throw spec.limitReached(cap.maxPerSession);
      }
      this.insertRow.run(spec.toRow(record));
    });
    this.updateTx = db.transaction((sessionId: string, id: string, change: (current: T) => T) => {
      const row = this.selectOne.get(sessionId, id);
      if (row === undefined) return null;
      this.updateRow.run(spec.toRow(change(spec.fromRow(row))));
      const written = this.selectOne.get(sessionId, id);
      return written === undefined ? null : spec.fromRow(written);
    });
  }

  /** Inserts under the cap; a taken id is a ConflictError, an unknown session a NotFoundError. */
  create(record: T, cap: PerSessionCap): void {
    const duplicate = (target: string) =>
      this.spec.conflictOn?.(target, record) ??
      new ConflictError('CONFLICT', `A ${this.spec.what} with this id already exists`);
    runSql(
      this.spec.store,
      () => {
        try {
          this.createTx.immediate(record, cap);
        } catch (error) {
          if (isForeignKeyViolation(error)) {
            throw new NotFoundError(`Session ${record.sessionId} not found`, { cause: error });
          }
          throw error;
        }
      },
      duplicate,
    );
  }

  find(sessionId: string, id: string): T | null {
    return runSql(this.spec.store, () => {
      const row = this.selectOne.get(sessionId, id);
      return row === undefined ? null : this.spec.fromRow(row);
    });
  }

  listBySession(sessionId: string): T[] {
    return runSql(this.spec.store, () => this.selectBySession.all(sessionId).map(this.spec.fromRow));
  }

  update<K extends keyof T>(
    sessionId: string,
    id: string,
    patch: Partial<Pick<T, K>>,
    fields: readonly K[],
  ): T | null {
    return runSql(
      this.spec.store,
      () => this.updateTx.immediate(sessionId, id, (current) => applyPatch(current, patch, fields)),
      (target) => this.spec.conflictOn?.(target, patch as Partial<T>),
    );
  }

  delete(sessionId: string, id: string): boolean {
    return runSql(this.spec.store, () => this.deleteOne.run(sessionId, id).changes > 0);
  }

  deleteBySession(sessionId: string): number {
    return runSql(this.spec.store, () => this.deleteBySessionId.run(sessionId).changes);
  }
}
