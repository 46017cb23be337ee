/** In-memory SendIdempotencyStore: the unit-test fake, behaving like the SQLite adapter. */
import {
  idempotencyExpiredBy,
  type NewSendKey,
  type SendIdempotencyClaim,
  type SendIdempotencyRecord,
  type SendIdempotencyStore,
  type StoredSendKey,
} from '#shared/ports/send-idempotency-store.port.js';

interface Entry extends SendIdempotencyRecord {
  sessionId: string;
  key: string;
}

/** Keys in a Map by (session, key); expired ones are swept by every claim. */
export class MemorySendIdempotencyStore implements SendIdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  async claim(
    { sessionId, key, requestHash, messageId }: NewSendKey,
    now: Date,
  ): Promise<SendIdempotencyClaim> {
    const expiredBy = idempotencyExpiredBy(now);
    for (const [id, entry] of this.entries) if (entry.createdAt <= expiredBy) this.entries.delete(id);
    const id = JSON.stringify([sessionId, key]);
    const standing = this.entries.get(id);
    if (standing) {
      const { sessionId: _session, key: _key, ...existing } = standing;
      return { claimed: false, existing };
    }
    this.entries.set(id, { sessionId, key, requestHash, messageId, createdAt: now.toISOString() });
    return { claimed: true };
  }

  async listBySession(
    sessionId: string,
    page: { now: Date; afterKey: string | null; limit: number },
  ): Promise<StoredSendKey[]> {
    const expiredBy = idempotencyExpiredBy(page.now);
    return [...this.entries.values()]
      .filter(
        (entry) =>
          entry.sessionId === sessionId &&
          entry.createdAt > expiredBy &&
          (page.afterKey === null || entry.key > page.afterKey),
      )
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, page.limit)
      .map((entry) => ({ ...entry }));
  }

  async release(sessionId: string, key: string, messageId: string): Promise<boolean> {
    const id = JSON.stringify([sessionId, key]);
    if (this.entries.get(id)?.messageId !== messageId) return false;
    return this.entries.delete(id);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    let removed = 0;
    for (const [id, entry] of this.entries) {
      if (entry.sessionId !== sessionId) continue;
      this.entries.delete(id);
      removed += 1;
    }
    return removed;
  }
}
