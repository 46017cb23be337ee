/**
 * AuditLogStore over the main SQLite file. Append is one transaction per batch that skips known ids; queries build
 * their WHERE from the filters present and reuse one prepared statement per filter shape.
 */
import type Database from 'better-sqlite3';
import type { AuditAction, AuditEntry, AuditSeverity } from '#shared/domain/audit.js';
import type { Page } from '#shared/domain/common.js';
import type { AuditFilter, AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import {
  LazyStatement,
  parseJsonObject,
  runSql,
  StatementCache,
  toJsonColumn,
} from './sqlite-store-support.js';

interface AuditRow {
  id: string;
  action: string;
  severity: string;
  api_key_id: string | null;
  api_key_name: string | null;
  session_id: string | null;
  session_name: string | null;
  ip_address: string | null;
  user_agent: string | null;
  method: string | null;
  path: string | null;
  status_code: number | null;
  metadata: string | null;
  error_message: string | null;
  created_at: string;
}

const STORE = 'Audit log store';

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    // Only ever written from validated entries.
    action: row.action as AuditAction,
    severity: row.severity as AuditSeverity,
    apiKeyId: row.api_key_id,
    apiKeyName: row.api_key_name,
    sessionId: row.session_id,
    sessionName: row.session_name,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    method: row.method,
    path: row.path,
    statusCode: row.status_code,
    metadata: parseJsonObject(row.metadata),
    errorMessage: row.error_message,
    createdAt: row.created_at,
  };
}

function toRow(entry: AuditEntry): AuditRow {
  return {
    id: entry.id,
    action: entry.action,
    severity: entry.severity,
    api_key_id: entry.apiKeyId,
    api_key_name: entry.apiKeyName,
    session_id: entry.sessionId,
    session_name: entry.sessionName,
    ip_address: entry.ipAddress,
    user_agent: entry.userAgent,
    method: entry.method,
    path: entry.path,
    status_code: entry.statusCode,
    metadata: toJsonColumn(entry.metadata),
    error_message: entry.errorMessage,
    created_at: entry.createdAt,
  };
}

/** WHERE clause and named parameters for a filter; the clause text depends only on which filters are set. */
function whereOf(filter: AuditFilter): { where: string; params: Record<string, unknown> } {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.action !== undefined) {
    conditions.push('action = @action');
    params.action = filter.action;
  }
  if (filter.severity !== undefined) {
    conditions.push('severity = @severity');
    params.severity = filter.severity;
  }
  if (filter.sessionId !== undefined) {
    conditions.push('session_id = @session_id');
    params.session_id = filter.sessionId;
  }
  if (filter.apiKeyId !== undefined) {
    conditions.push('api_key_id = @api_key_id');
    params.api_key_id = filter.apiKeyId;
  }
  if (filter.sessionIds !== undefined) {
    // One bound JSON array keeps the SQL text (and so the cached statement) independent of the scope's size.
    conditions.push('session_id IN (SELECT value FROM json_each(@session_ids))');
    params.session_ids = JSON.stringify(filter.sessionIds);
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}

/** The audit log in SQLite, newest first by (created_at, id). */
export class SqliteAuditLogStore implements AuditLogStore {
  private readonly insertRow: LazyStatement<AuditRow>;
  private readonly deleteOldest: LazyStatement<[string, number]>;
  private readonly appendBatch: Database.Transaction<(entries: readonly AuditEntry[]) => void>;
  private readonly readPage: Database.Transaction<
    (filter: AuditFilter, page: Page) => { data: AuditEntry[]; total: number }
  >;
  private readonly rows: StatementCache<AuditRow>;
  private readonly totals: StatementCache<{ total: number }>;

  constructor(db: SqliteDb) {
    this.insertRow = new LazyStatement(
      db,
      `INSERT INTO audit_logs (id, action, severity, api_key_id, api_key_name, session_id, session_name,
         ip_address, user_agent, method, path, status_code, metadata, error_message, created_at)
       VALUES (@id, @action, @severity, @api_key_id, @api_key_name, @session_id, @session_name,
         @ip_address, @user_agent, @method, @path, @status_code, @metadata, @error_message, @created_at)
       ON CONFLICT (id) DO NOTHING`,
    );
    // A batch at a time on the (created_at, id) index: one DELETE of a large backlog blocks the process for seconds.
    this.deleteOldest = new LazyStatement(
      db,
      `DELETE FROM audit_logs WHERE rowid IN
         (SELECT rowid FROM audit_logs WHERE created_at < ? ORDER BY created_at, id LIMIT ?)`,
    );
    this.rows = new StatementCache(db);
    this.totals = new StatementCache(db);
    this.appendBatch = db.transaction((entries: readonly AuditEntry[]) => {
      for (const entry of entries) this.insertRow.run(toRow(entry));
    });
    // A read transaction so the page and its total come from the same snapshot.
    this.readPage = db.transaction((filter: AuditFilter, page: Page) => {
      const { where, params } = whereOf(filter);
      const total =
        this.totals.first(`SELECT COUNT(*) AS total FROM audit_logs ${where}`, params)?.total ?? 0;
      const data = this.rows
        .all(
          `SELECT * FROM audit_logs ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
          {
            ...params,
            limit: page.limit,
            offset: page.offset,
          },
        )
        .map(toEntry);
      return { data, total };
    });
  }

  async append(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    runSql(STORE, () => this.appendBatch.immediate(entries));
  }

  async query(filter: AuditFilter, page: Page): Promise<{ data: AuditEntry[]; total: number }> {
    if (filter.sessionIds !== undefined && filter.sessionIds.length === 0) return { data: [], total: 0 };
    return runSql(STORE, () => this.readPage.deferred(filter, page));
  }

  async pruneOlderThan(cutoff: Date, limit: number): Promise<number> {
    return runSql(STORE, () => this.deleteOldest.run(cutoff.toISOString(), limit).changes);
  }
}
