/**
 * Group commit for one SQLite file. A commit writes every page its transaction dirtied to the WAL: a message insert
 * alone touches the table, five indexes and the search index, and pays that whether it commits alone or beside
 * twenty others. So writes asked for in the same turn of the event loop (the requests of one poll phase, the acks
 * of one socket read) run together in one IMMEDIATE transaction at the end of that turn, each in its own savepoint:
 * one failing write rolls back alone and the others still commit. A write's promise settles only after the commit,
 * so no caller hears of a write that could still be undone, and a caller that awaits its write before reading sees
 * it as before. A write issued while a turn's batch commits waits for the next turn.
 */
import type { SqliteDb } from './sqlite-database.js';

interface PendingWrite {
  work: () => unknown;
  /** One statement, or a better-sqlite3 transaction function: undone alone on failure without a savepoint of ours. */
  atomic: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The group commit of one database handle: `run` queues a synchronous write for the end of this turn. */
export class SqliteGroupCommit {
  private pending: PendingWrite[] = [];
  private readonly all: (writes: readonly PendingWrite[]) => Outcome[];
  private readonly savepoint: (work: () => unknown) => unknown;

  constructor(db: SqliteDb) {
    // Called inside the batch's transaction, a better-sqlite3 transaction function opens a savepoint; so does a
    // write that is itself a transaction function.
    this.savepoint = db.transaction((work: () => unknown) => work());
    const all = db.transaction((writes: readonly PendingWrite[]) =>
      writes.map((write): Outcome => {
        // An I/O error or a full disk can roll the whole transaction back; what follows must not autocommit. The
        // batch's COMMIT then fails, and that error is what every write of it hears.
        if (!db.inTransaction) return { ok: false, error: new Error('the batch was rolled back') };
        try {
          return { ok: true, value: write.atomic ? write.work() : this.savepoint(write.work) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
    this.all = (writes) => all.immediate(writes);
  }

  /** Runs `work` (synchronous driver calls) in this turn's batch; settles once that batch committed. */
  run<T>(work: () => T): Promise<T> {
    return this.enqueue(work, false);
  }

  /**
   * `run` for a write that is atomic on its own: a single statement (SQLite undoes a failing statement alone and
   * keeps the transaction) or a better-sqlite3 transaction function (which opens its own savepoint inside the
   * batch). It spares the batch a savepoint per write: two of the statements a write costs on the hot path.
   */
  runAtomic<T>(work: () => T): Promise<T> {
    return this.enqueue(work, true);
  }

  private enqueue<T>(work: () => T, atomic: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ work, atomic, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  private flush(): void {
    const writes = this.pending;
    this.pending = [];
    if (writes.length === 1) {
      // Alone in its turn: no savepoint to pay for, and a write that is a transaction opens its own.
      const [write] = writes as [PendingWrite];
      try {
        write.resolve(write.work());
      } catch (error) {
        write.reject(error);
      }
      return;
    }
    let outcomes: Outcome[];
    try {
      outcomes = this.all(writes);
    } catch (error) {
      // BEGIN or COMMIT failed (the lock held past busy_timeout, a closed handle, an I/O error): nothing committed.
      for (const write of writes) write.reject(error);
      return;
    }
    writes.forEach((write, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }
}

const groupCommits = new WeakMap<SqliteDb, SqliteGroupCommit>();

/** The group commit of `db`, shared by every adapter writing through that handle. */
export function groupCommitOf(db: SqliteDb): SqliteGroupCommit {
  let groupCommit = groupCommits.get(db);
  if (groupCommit === undefined) {
    groupCommit = new SqliteGroupCommit(db);
    groupCommits.set(db, groupCommit);
  }
  return groupCommit;
}
