/**
 * Helpers shared by the SQLite store adapters: translating driver errors into the AppError hierarchy, caching
 * statements whose SQL depends on which filters are present, and defensive parsing of JSON columns.
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { AppError, ConflictError, UnavailableError } from '#shared/errors/app-error.js';
import type { SqliteDb } from './sqlite-database.js';
import { groupCommitOf } from './sqlite-group-commit.js';

/** Maps the `table.column` of a violated UNIQUE constraint to the error the port promises, if it has one. */
export type UniqueViolationHandler = (target: string) => AppError | undefined;

interface DriverError {
  code: string;
  message: string;
}

/**
 * Duck-typed, with neither `instanceof Database.SqliteError` nor `instanceof Error`: the native addon keeps the
 * error class of the first module instance that loaded it, and under a test runner that instance (and its Error)
 * can belong to another realm.
 */
function isDriverError(error: unknown): error is DriverError {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && typeof message === 'string';
}

/**
 * Turns anything thrown while talking to SQLite into an AppError: UNIQUE violations become a ConflictError
 * (specific when `onUnique` knows the column), everything else a retryable 503 that keeps the driver error as its
 * cause, so callers and transports never see driver types.
 */
export function toStoreError(error: unknown, store: string, onUnique?: UniqueViolationHandler): AppError {
  if (error instanceof AppError) return error;
  if (isDriverError(error) && error.code.startsWith('SQLITE_CONSTRAINT')) {
    const target = /UNIQUE constraint failed: ([\w.]+)/.exec(error.message)?.[1];
    if (target !== undefined) {
      return (
        onUnique?.(target) ??
        new ConflictError('CONFLICT', `${store}: a record with this ${target} already exists`)
      );
    }
  }
  return new UnavailableError('DEPENDENCY_UNAVAILABLE', `${store} is unavailable`, { cause: error });
}

/**
 * True for a violated FOREIGN KEY. The data store's only foreign keys point at the owning session, so adapters
 * turn this into a 404 for that session rather than the retryable 503 `runSql` gives constraints it does not know.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return isDriverError(error) && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Runs `work` and translates whatever it throws with `toStoreError`. */
export function runSql<T>(store: string, work: () => T, onUnique?: UniqueViolationHandler): T {
  try {
    return work();
  } catch (error) {
    throw toStoreError(error, store, onUnique);
  }
}

/**
 * `runSql` for a write on the hot path: it runs in the group commit of `db` (sqlite-group-commit.ts), together with
 * the other writes of this turn, and its errors are translated the same way. `work` must be atomic on its own: one
 * statement, or a better-sqlite3 transaction function for several (see SqliteGroupCommit.runAtomic).
 */
export async function writeSql<T>(
  db: SqliteDb,
  store: string,
  work: () => T,
  onUnique?: UniqueViolationHandler,
): Promise<T> {
  try {
    return await groupCommitOf(db).runAtomic(work);
  } catch (error) {
    throw toStoreError(error, store, onUnique);
  }
}

type BindArgs<P> = P extends unknown[] ? P : [P];

/**
 * A statement prepared on its first use. Opening the stores used to prepare every statement of every store and
 * queue, some 130 of them (tens of milliseconds of each start), most of which a process may never run; here a
 * store costs nothing to open and each statement is prepared once, when first run. The hot paths pay one check.
 */
export class LazyStatement<P extends unknown[] | object = unknown[], R = unknown> {
  private statement: Database.Statement<unknown[], R> | undefined;

  /** `pluck`: rows are the first column's value, as `Statement.pluck()` gives them. */
  constructor(
    private readonly db: SqliteDb,
    private readonly sql: string,
    private readonly pluck = false,
  ) {}

  run(...params: BindArgs<P>): Database.RunResult {
    return this.prepared().run(...params);
  }

  get(...params: BindArgs<P>): R | undefined {
    return this.prepared().get(...params);
  }

  all(...params: BindArgs<P>): R[] {
    return this.prepared().all(...params);
  }

  private prepared(): Database.Statement<unknown[], R> {
    if (this.statement === undefined) {
      const statement = this.db.prepare<unknown[], R>(this.sql);
      this.statement = this.pluck ? statement.pluck() : statement;
    }
    return this.statement;
  }
}

/** A statement per distinct SQL text, prepared on first use: queries whose WHERE depends on the filters given. */
export class StatementCache<Row> {
  private readonly statements = new Map<string, ReturnType<SqliteDb['prepare']>>();

  constructor(private readonly db: SqliteDb) {}

  all(sql: string, params: Record<string, unknown>): Row[] {
    return this.get(sql).all(params) as Row[];
  }

  first(sql: string, params: Record<string, unknown>): Row | undefined {
    return this.get(sql).get(params) as Row | undefined;
  }

  private get(sql: string): ReturnType<SqliteDb['prepare']> {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON object column; NULL, malformed JSON or a non-object read as null. */
export function parseJsonObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  const value = parseJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return value as Record<string, unknown>;
}

/**
 * A nullable JSON list of strings. NULL reads as null ("no restriction"); a corrupt value reads as an empty list,
 * because for allowlists failing closed (nothing allowed) is the safe side.
 */
export function parseStringList(text: string | null): string[] | null {
  if (text === null) return null;
  const value = parseJson(text);
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string');
}

/**
 * A nullable JSON column holding a value of `schema` (filters, say). NULL, malformed JSON or a value the schema
 * refuses read as null, so one corrupt column never makes its whole row unreadable.
 */
export function parseJsonWith<T>(text: string | null, schema: z.ZodType<T>): T | null {
  if (text === null) return null;
  const parsed = schema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : null;
}

/** JSON text for a nullable value; null stays SQL NULL. */
export function toJsonColumn(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
