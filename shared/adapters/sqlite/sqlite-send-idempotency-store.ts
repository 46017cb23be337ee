/**
 * SendIdempotencyStore over the data SQLite file. A claim is one upsert whose update only fires once the standing
 * key has expired, so the check and the write are a single statement and two racing claims cannot both win; the
 * same transaction sweeps a few expired keys, so no separate job is needed.
 */
import type Database from 'better-sqlite3';
import { NotFoundError } from '#shared/errors/app-error.js';
import {
  idempotencyExpiredBy,
  type NewSendKey,
  type SendIdempotencyClaim,
  type SendIdempotencyRecord,
  type SendIdempotencyStore,
  type StoredSendKey,
} from '#shared/ports/send-idempotency-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { isForeignKeyViolation, LazyStatement, runSql } from './sqlite-store-support.js';

interface ClaimParams {
  session_id: string;
  idempotency_key: string;
  request_hash: string;
  message_id: string;
  created_at: string;
  expired_by: string;
}

const STORE = 'Send idempotency store';

/**
 * Expired keys removed per claim: each claim adds at most one key and sweeps up to this many (found through the
 * `created_at` index), so the table stays near a day of keys.
 */
const SWEEP_PER_CLAIM = 16;

/** Idempotency keys in SQLite, one row per (session, key). */
export class SqliteSendIdempotencyStore implements SendIdempotencyStore {
  private readonly claimTx: Database.Transaction<(params: ClaimParams) => SendIdempotencyClaim>;
  private readonly releaseKey: LazyStatement<[string, string, string]>;
  private readonly deleteBySessionId: LazyStatement<[string]>;
  private readonly selectLive: LazyStatement<[string, string, string, number], StoredSendKey>;

  constructor(db: SqliteDb) {
    const sweep = new LazyStatement<[string, number]>(
      db,
      `DELETE FROM send_idempotency_keys
       WHERE rowid IN (SELECT rowid FROM send_idempotency_keys WHERE created_at <= ? LIMIT ?)`,
    );
    // Inserts a new key, or replaces an expired one; a live one matches the conflict but not the WHERE, so
    // nothing changes and the standing record is read back.
    const upsert = new LazyStatement<ClaimParams>(
      db,
      `INSERT INTO send_idempotency_keys (session_id, idempotency_key, request_hash, message_id, created_at)
       VALUES (@session_id, @idempotency_key, @request_hash, @message_id, @created_at)
       ON CONFLICT (session_id, idempotency_key) DO UPDATE SET
         request_hash = excluded.request_hash, message_id = excluded.message_id, created_at = excluded.created_at
       WHERE send_idempotency_keys.created_at <= @expired_by`,
    );
    const standing = new LazyStatement<[string, string], SendIdempotencyRecord>(
      db,
      `SELECT request_hash AS requestHash, message_id AS messageId, created_at AS createdAt
       FROM send_idempotency_keys WHERE session_id = ? AND idempotency_key = ?`,
    );
    this.claimTx = db.transaction((params: ClaimParams): SendIdempotencyClaim => {
      sweep.run(params.expired_by, SWEEP_PER_CLAIM);
      if (upsert.run(params).changes > 0) return { claimed: true };
      const existing = standing.get(params.session_id, params.idempotency_key);
      if (!existing) throw new Error('idempotency key neither claimed nor standing');
      return { claimed: false, existing };
    });
    this.releaseKey = new LazyStatement(
      db,
      'DELETE FROM send_idempotency_keys WHERE session_id = ? AND idempotency_key = ? AND message_id = ?',
    );
    this.deleteBySessionId = new LazyStatement(db, 'DELETE FROM send_idempotency_keys WHERE session_id = ?');
    this.selectLive = new LazyStatement(
      db,
      `SELECT session_id AS sessionId, idempotency_key AS key, request_hash AS requestHash,
         message_id AS messageId, created_at AS createdAt
       FROM send_idempotency_keys WHERE session_id = ? AND idempotency_key > ? AND created_at > ?
       ORDER BY idempotency_key LIMIT ?`,
    );
  }

  async claim(entry: NewSendKey, now: Date): Promise<SendIdempotencyClaim> {
    const { sessionId } = entry;
    const params = {
      session_id: sessionId,
      idempotency_key: entry.key,
      request_hash: entry.requestHash,
      message_id: entry.messageId,
      created_at: now.toISOString(),
      expired_by: idempotencyExpiredBy(now),
    };
    return runSql(STORE, () => {
      try {
        return this.claimTx.immediate(params);
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new NotFoundError(`Session ${sessionId} not found`, { cause: error });
        }
        throw error;
      }
    });
  }

  async listBySession(
    sessionId: string,
    page: { now: Date; afterKey: string | null; limit: number },
  ): Promise<StoredSendKey[]> {
    const expiredBy = idempotencyExpiredBy(page.now);
    return runSql(STORE, () => this.selectLive.all(sessionId, page.afterKey ?? '', expiredBy, page.limit));
  }

  async release(sessionId: string, key: string, messageId: string): Promise<boolean> {
    return runSql(STORE, () => this.releaseKey.run(sessionId, key, messageId).changes > 0);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return runSql(STORE, () => this.deleteBySessionId.run(sessionId).changes);
  }
}
