/** In-memory AuditLogStore: the unit-test fake, behaving like the SQLite adapter (copies, ordering, known ids skipped). */
import type { AuditEntry } from '#shared/domain/audit.js';
import type { Page } from '#shared/domain/common.js';
import type { AuditFilter, AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import { jsonCopy, newestFirst, oldestBefore } from './memory-support.js';

function copyEntry(entry: AuditEntry): AuditEntry {
  return {
    id: entry.id,
    action: entry.action,
    severity: entry.severity,
    apiKeyId: entry.apiKeyId,
    apiKeyName: entry.apiKeyName,
    sessionId: entry.sessionId,
    sessionName: entry.sessionName,
    ipAddress: entry.ipAddress,
    userAgent: entry.userAgent,
    method: entry.method,
    path: entry.path,
    statusCode: entry.statusCode,
    metadata: entry.metadata === null ? null : jsonCopy(entry.metadata),
    errorMessage: entry.errorMessage,
    createdAt: entry.createdAt,
  };
}

function matches(entry: AuditEntry, filter: AuditFilter): boolean {
  if (filter.action !== undefined && entry.action !== filter.action) return false;
  if (filter.severity !== undefined && entry.severity !== filter.severity) return false;
  if (filter.sessionId !== undefined && entry.sessionId !== filter.sessionId) return false;
  if (filter.apiKeyId !== undefined && entry.apiKeyId !== filter.apiKeyId) return false;
  if (filter.sessionIds !== undefined) {
    if (entry.sessionId === null || !filter.sessionIds.includes(entry.sessionId)) return false;
  }
  return true;
}

/** The audit log in a Map keyed by id. */
export class MemoryAuditLogStore implements AuditLogStore {
  private readonly byId = new Map<string, AuditEntry>();

  async append(entries: readonly AuditEntry[]): Promise<void> {
    for (const entry of entries) if (!this.byId.has(entry.id)) this.byId.set(entry.id, copyEntry(entry));
  }

  async query(filter: AuditFilter, page: Page): Promise<{ data: AuditEntry[]; total: number }> {
    const matching = [...this.byId.values()].filter((entry) => matches(entry, filter)).sort(newestFirst);
    return {
      data: matching.slice(page.offset, page.offset + page.limit).map(copyEntry),
      total: matching.length,
    };
  }

  async pruneOlderThan(cutoff: Date, limit: number): Promise<number> {
    const doomed = oldestBefore(this.byId.values(), cutoff, limit);
    for (const entry of doomed) this.byId.delete(entry.id);
    return doomed.length;
  }
}
