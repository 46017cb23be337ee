/**
 * SessionStore over the data SQLite file. `findById` runs on every session request, so its statement is prepared
 * once; `update` reads, merges and writes the whole row inside one IMMEDIATE transaction, which makes its
 * compare-and-set conditions atomic across processes sharing the file. Lease operations are each one conditional
 * UPDATE … RETURNING, so of two nodes racing for a session exactly one statement changes the row.
 */
import type Database from 'better-sqlite3';
import { applyPatch } from '#shared/adapters/patch-support.js';
import type { Page } from '#shared/domain/common.js';
import type { Session, SessionStatus } from '#shared/domain/session.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  type LeaseClaim,
  leaseEnd,
  SESSION_PATCH_FIELDS,
  type SessionFilter,
  type SessionPatch,
  type SessionStore,
  type SessionUpdateResult,
  type SessionWriteOptions,
  updateConditionsHold,
} from '#shared/ports/session-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { SqliteOutboxWriter } from './sqlite-event-outbox.js';
import {
  LazyStatement,
  parseJsonObject,
  runSql,
  StatementCache,
  toJsonColumn,
} from './sqlite-store-support.js';

interface SessionRow {
  id: string;
  name: string;
  status: string;
  phone: string | null;
  push_name: string | null;
  config: string;
  proxy_url: string | null;
  proxy_type: string | null;
  connected_at: string | null;
  last_active_at: string | null;
  last_error: string | null;
  node_id: string | null;
  node_url: string | null;
  claimed_at: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

type UpdateFn = (id: string, patch: SessionPatch, options: SessionWriteOptions) => SessionUpdateResult;

/** Parameters of the lease statements; `statuses` is a JSON array, or null for "any status". */
interface LeaseParams {
  id: string;
  node_id: string;
  node_url?: string;
  now?: string;
  expires?: string;
  statuses?: string | null;
}

// A lease is live while its expiry lies after the instant; `NULL <= now` is not true, so a nodeId without an
// expiry counts as held (never as free), the same reading the other adapters give it.
const CLAIM_SQL = `UPDATE sessions SET node_id = @node_id, node_url = @node_url, claimed_at = @now,
    lease_expires_at = @expires
  WHERE id = @id AND (node_id IS NULL OR node_id = @node_id OR lease_expires_at <= @now)
    AND (@statuses IS NULL OR status IN (SELECT value FROM json_each(@statuses)))
  RETURNING *`;
const RENEW_SQL = `UPDATE sessions SET node_url = @node_url, lease_expires_at = @expires
  WHERE id = @id AND node_id = @node_id RETURNING *`;
const RELEASE_SQL = `UPDATE sessions SET node_id = NULL, node_url = NULL, claimed_at = NULL, lease_expires_at = NULL
  WHERE id = @id AND node_id = @node_id RETURNING *`;

const STORE = 'Session store';

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    name: row.name,
    // Only ever written from a validated Session.
    status: row.status as SessionStatus,
    phone: row.phone,
    pushName: row.push_name,
    // A corrupt config falls back to the defaults rather than making the session unreadable.
    config: parseJsonObject(row.config) ?? {},
    proxyUrl: row.proxy_url,
    proxyType: row.proxy_type,
    connectedAt: row.connected_at,
    lastActiveAt: row.last_active_at,
    lastError: row.last_error,
    nodeId: row.node_id,
    nodeUrl: row.node_url,
    claimedAt: row.claimed_at,
    leaseExpiresAt: row.lease_expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(session: Session): SessionRow {
  return {
    id: session.id,
    name: session.name,
    status: session.status,
    phone: session.phone,
    push_name: session.pushName,
    config: toJsonColumn(session.config) ?? '{}',
    proxy_url: session.proxyUrl,
    proxy_type: session.proxyType,
    connected_at: session.connectedAt,
    last_active_at: session.lastActiveAt,
    last_error: session.lastError,
    node_id: session.nodeId,
    node_url: session.nodeUrl,
    claimed_at: session.claimedAt,
    lease_expires_at: session.leaseExpiresAt,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}

/** The port's promised errors for a taken name or id. */
function conflictFor(name: string): (target: string) => ConflictError {
  return (target) => {
    if (target === 'sessions.name') {
      return new ConflictError('SESSION_NAME_EXISTS', `Session name '${name}' already exists`);
    }
    return target.startsWith('event_outbox.')
      ? new ConflictError('CONFLICT', 'An outbox entry with this id already exists')
      : new ConflictError('CONFLICT', 'A session with this id already exists');
  };
}

/** WHERE clause and parameters for a session filter; the text depends only on which filters are set. */
function whereOf(filter: SessionFilter): { where: string; params: Record<string, unknown> } {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.ids !== undefined) {
    // A bound JSON array keeps one statement for any number of ids.
    conditions.push('id IN (SELECT value FROM json_each(@ids))');
    params.ids = JSON.stringify(filter.ids);
  }
  if (filter.name !== undefined) {
    conditions.push('name = @name');
    params.name = filter.name;
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}

/** Sessions in SQLite, unique by name (case-sensitive). */
export class SqliteSessionStore implements SessionStore {
  private readonly insertRow: LazyStatement<SessionRow>;
  private readonly selectById: LazyStatement<[string], SessionRow>;
  private readonly selectByStatus: LazyStatement<[string], SessionRow>;
  private readonly updateRow: LazyStatement<SessionRow>;
  private readonly deleteById: LazyStatement<[string]>;
  private readonly updateTx: Database.Transaction<UpdateFn>;
  private readonly claimRow: LazyStatement<LeaseParams, SessionRow>;
  private readonly renewRow: LazyStatement<LeaseParams, SessionRow>;
  private readonly releaseRow: LazyStatement<LeaseParams, SessionRow>;
  private readonly rows: StatementCache<SessionRow>;
  private readonly counts: StatementCache<{ status: string; n: number }>;

  constructor(
    db: SqliteDb,
    private readonly outbox: SqliteOutboxWriter = new SqliteOutboxWriter(db),
  ) {
    this.insertRow = new LazyStatement(
      db,
      `INSERT INTO sessions (id, name, status, phone, push_name, config, proxy_url, proxy_type, connected_at,
         last_active_at, last_error, node_id, node_url, claimed_at, lease_expires_at, created_at, updated_at)
       VALUES (@id, @name, @status, @phone, @push_name, @config, @proxy_url, @proxy_type, @connected_at,
         @last_active_at, @last_error, @node_id, @node_url, @claimed_at, @lease_expires_at, @created_at, @updated_at)`,
    );
    this.selectById = new LazyStatement(db, 'SELECT * FROM sessions WHERE id = ?');
    this.selectByStatus = new LazyStatement(
      db,
      'SELECT * FROM sessions WHERE status IN (SELECT value FROM json_each(?)) ORDER BY created_at ASC, id ASC',
    );
    this.updateRow = new LazyStatement(
      db,
      `UPDATE sessions SET name = @name, status = @status, phone = @phone, push_name = @push_name,
         config = @config, proxy_url = @proxy_url, proxy_type = @proxy_type, connected_at = @connected_at,
         last_active_at = @last_active_at, last_error = @last_error, node_id = @node_id, node_url = @node_url,
         claimed_at = @claimed_at, lease_expires_at = @lease_expires_at, updated_at = @updated_at
       WHERE id = @id`,
    );
    this.deleteById = new LazyStatement(db, 'DELETE FROM sessions WHERE id = ?');
    this.rows = new StatementCache(db);
    this.counts = new StatementCache(db);
    this.updateTx = db.transaction((id: string, patch: SessionPatch, options: SessionWriteOptions) =>
      this.updateInTransaction(id, patch, options),
    );
    this.claimRow = new LazyStatement(db, CLAIM_SQL);
    this.renewRow = new LazyStatement(db, RENEW_SQL);
    this.releaseRow = new LazyStatement(db, RELEASE_SQL);
  }

  async create(session: Session): Promise<void> {
    runSql(STORE, () => this.insertRow.run(toRow(session)), conflictFor(session.name));
  }

  async findById(id: string): Promise<Session | null> {
    return runSql(STORE, () => {
      const row = this.selectById.get(id);
      return row === undefined ? null : toSession(row);
    });
  }

  async list(filter: SessionFilter, page: Page): Promise<Session[]> {
    if (filter.ids !== undefined && filter.ids.length === 0) return [];
    const { where, params } = whereOf(filter);
    const sql = `SELECT * FROM sessions ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`;
    return runSql(STORE, () =>
      this.rows.all(sql, { ...params, limit: page.limit, offset: page.offset }).map(toSession),
    );
  }

  async listByStatus(statuses: readonly SessionStatus[]): Promise<Session[]> {
    if (statuses.length === 0) return [];
    return runSql(STORE, () => this.selectByStatus.all(JSON.stringify(statuses)).map(toSession));
  }

  async countByStatus(filter: SessionFilter): Promise<Partial<Record<SessionStatus, number>>> {
    if (filter.ids !== undefined && filter.ids.length === 0) return {};
    const { where, params } = whereOf(filter);
    const sql = `SELECT status, COUNT(*) AS n FROM sessions ${where} GROUP BY status`;
    return runSql(STORE, () => {
      const counts: Partial<Record<SessionStatus, number>> = {};
      for (const row of this.counts.all(sql, params)) counts[row.status as SessionStatus] = row.n;
      return counts;
    });
  }

  async update(
    id: string,
    patch: SessionPatch,
    options: SessionWriteOptions = {},
  ): Promise<SessionUpdateResult> {
    return runSql(STORE, () => this.updateTx.immediate(id, patch, options), conflictFor(patch.name ?? ''));
  }

  async claimLease(
    id: string,
    claim: LeaseClaim,
    options: { expectStatus?: readonly SessionStatus[] } = {},
  ): Promise<SessionUpdateResult> {
    return this.leaseWrite(this.claimRow, {
      id,
      node_id: claim.nodeId,
      node_url: claim.nodeUrl,
      now: claim.now.toISOString(),
      expires: leaseEnd(claim),
      statuses: options.expectStatus === undefined ? null : JSON.stringify(options.expectStatus),
    });
  }

  async renewLease(id: string, claim: LeaseClaim): Promise<SessionUpdateResult> {
    return this.leaseWrite(this.renewRow, {
      id,
      node_id: claim.nodeId,
      node_url: claim.nodeUrl,
      expires: leaseEnd(claim),
    });
  }

  async releaseLease(id: string, nodeId: string): Promise<SessionUpdateResult> {
    return this.leaseWrite(this.releaseRow, { id, node_id: nodeId });
  }

  async delete(id: string): Promise<boolean> {
    return runSql(STORE, () => this.deleteById.run(id).changes > 0);
  }

  /** Runs one conditional lease UPDATE; when it changed nothing, the row as it stands says why. */
  private leaseWrite(
    statement: LazyStatement<LeaseParams, SessionRow>,
    params: LeaseParams,
  ): SessionUpdateResult {
    return runSql(STORE, () => {
      const written = statement.get(params);
      if (written !== undefined) return { outcome: 'updated', session: toSession(written) };
      const row = this.selectById.get(params.id);
      return row === undefined ? { outcome: 'not_found' } : { outcome: 'conflict', session: toSession(row) };
    });
  }

  private updateInTransaction(
    id: string,
    patch: SessionPatch,
    options: SessionWriteOptions,
  ): SessionUpdateResult {
    const row = this.selectById.get(id);
    if (row === undefined) return { outcome: 'not_found' };
    const current = toSession(row);
    if (!updateConditionsHold(current, options)) return { outcome: 'conflict', session: current };
    this.updateRow.run(toRow(applyPatch(current, patch, SESSION_PATCH_FIELDS)));
    for (const entry of options.outbox ?? []) this.outbox.writeEntry(entry);
    const written = this.selectById.get(id);
    return written === undefined
      ? { outcome: 'not_found' }
      : { outcome: 'updated', session: toSession(written) };
  }
}
