/**
 * SendPacingStore over the data SQLite file: one row per session (table `send_pacing`). Each change reads the row
 * and writes the next state inside one immediate transaction, so two processes sharing the file (or two sends of
 * one session) never both take the last unit of an allowance. The rules themselves are pacing-state.ts, shared with
 * the in-memory fake.
 */
import type Database from 'better-sqlite3';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { SendPacingRecord } from '#shared/ports/send-pacing-store.port.js';
import { NO_PACING_STATE, type PacingChange, type PacingState, StatePacingStore } from '../pacing-state.js';
import type { SqliteDb } from './sqlite-database.js';
import { isForeignKeyViolation, LazyStatement, runSql } from './sqlite-store-support.js';

const STORE = 'Send pacing store';

type Rule = (state: PacingState) => PacingChange<unknown>;

/** Pacing state in SQLite. */
export class SqliteSendPacingStore extends StatePacingStore {
  private readonly changeTx: Database.Transaction<(sessionId: string, rule: Rule) => unknown>;
  private readonly deleteBySessionId: LazyStatement<[string]>;
  private readonly select: LazyStatement<[string], PacingState>;

  constructor(db: SqliteDb) {
    super();
    const select = new LazyStatement<[string], PacingState>(
      db,
      'SELECT day, sent, cold, failures, open_until AS openUntil FROM send_pacing WHERE session_id = ?',
    );
    const upsert = new LazyStatement<PacingState & { sessionId: string }>(
      db,
      `INSERT INTO send_pacing (session_id, day, sent, cold, failures, open_until)
       VALUES (@sessionId, @day, @sent, @cold, @failures, @openUntil)
       ON CONFLICT (session_id) DO UPDATE SET day = excluded.day, sent = excluded.sent, cold = excluded.cold,
         failures = excluded.failures, open_until = excluded.open_until`,
    );
    this.changeTx = db.transaction((sessionId: string, rule: Rule) => {
      const { result, next } = rule(select.get(sessionId) ?? NO_PACING_STATE);
      if (next) upsert.run({ sessionId, ...next });
      return result;
    });
    this.select = select;
    this.deleteBySessionId = new LazyStatement(db, 'DELETE FROM send_pacing WHERE session_id = ?');
  }

  protected async change<T>(sessionId: string, rule: (state: PacingState) => PacingChange<T>): Promise<T> {
    return runSql(STORE, () => {
      try {
        return this.changeTx.immediate(sessionId, rule) as T;
      } catch (error) {
        // A write for a session the data store does not hold is a 404 for that session, as in the other stores.
        if (isForeignKeyViolation(error)) {
          throw new NotFoundError(`Session ${sessionId} not found`, { cause: error });
        }
        throw error;
      }
    });
  }

  async find(sessionId: string): Promise<SendPacingRecord | null> {
    return runSql(STORE, () => {
      const state = this.select.get(sessionId);
      return state ? { sessionId, ...state } : null;
    });
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return runSql(STORE, () => this.deleteBySessionId.run(sessionId).changes);
  }
}
