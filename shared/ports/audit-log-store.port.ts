import type { AuditAction, AuditEntry, AuditSeverity } from '#shared/domain/audit.js';
import type { Page } from '#shared/domain/common.js';

export interface AuditFilter {
  action?: AuditAction;
  severity?: AuditSeverity;
  sessionId?: string;
  apiKeyId?: string;
  /** Scope of a session-scoped caller: only entries of these sessions. `undefined` = no scope. */
  sessionIds?: readonly string[];
}

/** The audit log in the main store: append-only, queried newest first, pruned by age. */
export interface AuditLogStore {
  /**
   * Stores the entries whose id is not stored yet; an entry with a known id is skipped, the stored one kept. So a
   * write retried after a failure that had in fact landed (a timeout, a lost answer) stores nothing twice.
   */
  append(entries: readonly AuditEntry[]): Promise<void>;
  /** Entries matching the filter, newest first, and the unpaginated total. */
  query(filter: AuditFilter, page: Page): Promise<{ data: AuditEntry[]; total: number }>;
  /**
   * Retention: deletes at most `limit` entries created before `cutoff`, oldest first; answers how many. Callers repeat
   * until it answers less than `limit`, so one call never holds the store (SQLite: the process) for long.
   */
  pruneOlderThan(cutoff: Date, limit: number): Promise<number>;
}
