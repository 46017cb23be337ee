/**
 * In-memory StatusStore: the unit-test fake, behaving like the SQLite adapter (copies out, the list order, expiry on
 * read). Like the other memory stores it keeps no link to the session store, so it takes statuses of any session.
 */
import type { Page } from '#shared/domain/common.js';
import { newestStatusFirst } from '#shared/domain/status-order.js';
import type { StatusRecord } from '#shared/domain/status-update.js';
import type { OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { StatusQuery, StatusStore } from '#shared/ports/status-store.port.js';
import type { MemoryEventOutbox } from './memory-event-outbox.js';
import { jsonCopy } from './memory-support.js';

const key = (sessionId: string, statusId: string) => `${sessionId}\u0000${statusId}`;

/** Statuses in a Map; every method is atomic because nothing in it awaits. */
export class MemoryStatusStore implements StatusStore {
  private readonly statuses = new Map<string, StatusRecord>();

  constructor(private readonly outbox?: MemoryEventOutbox) {}

  async insert(status: StatusRecord, outbox?: (status: StatusRecord) => OutboxEntry): Promise<boolean> {
    const id = key(status.sessionId, status.statusId);
    if (this.statuses.has(id)) return false;
    this.statuses.set(id, jsonCopy(status));
    const entry = outbox?.(status);
    if (entry) this.outbox?.writeEntry(entry);
    return true;
  }

  async find(sessionId: string, statusId: string, now: number): Promise<StatusRecord | null> {
    const status = this.statuses.get(key(sessionId, statusId));
    return status && status.expiresAt > now ? jsonCopy(status) : null;
  }

  async list(query: StatusQuery, page: Page): Promise<StatusRecord[]> {
    const posters = query.contactId ? new Set(query.contactId) : null;
    return [...this.statuses.values()]
      .filter((status) => status.sessionId === query.sessionId && status.expiresAt > query.now)
      .filter((status) => posters === null || posters.has(status.contactId))
      .sort(newestStatusFirst)
      .slice(page.offset, page.offset + page.limit)
      .map((status) => jsonCopy(status));
  }

  async delete(sessionId: string, statusId: string): Promise<StatusRecord | null> {
    const id = key(sessionId, statusId);
    const status = this.statuses.get(id);
    this.statuses.delete(id);
    return status ?? null;
  }

  async deleteExpired(now: number, limit: number): Promise<StatusRecord[]> {
    const expired = [...this.statuses.values()].filter((status) => status.expiresAt <= now).slice(0, limit);
    for (const status of expired) this.statuses.delete(key(status.sessionId, status.statusId));
    return expired;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    let count = 0;
    for (const [id, status] of this.statuses) {
      if (status.sessionId !== sessionId) continue;
      this.statuses.delete(id);
      count++;
    }
    return count;
  }
}
