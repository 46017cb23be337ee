/**
 * Read-through, write-through cache of identity aliases, for the host that owns a session: every inbound message,
 * send outcome, change and call it publishes names a person by both ids (shared/domain/person-ids.ts), mostly the
 * same few people, and the session's engine reports every pairing through this object's `link`. A pairing drops
 * every entry that names either of its ids; a read that overlapped a pairing's write is answered but not kept.
 * `ttlMs` bounds staleness should another process write anyway.
 */
import type { IdentityAlias, IdentityAliasPage, IdentityStore } from '#shared/ports/identity-store.port.js';

interface Entry {
  aliases: readonly string[];
  expiresAt: number;
}

export class CachingIdentityStore implements IdentityStore {
  private readonly cache = new Map<string, Entry>();
  /** Pairings written per session since this process started: a read that saw another count is not kept. */
  private readonly writes = new Map<string, number>();

  constructor(
    private readonly inner: IdentityStore,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 10_000,
  ) {}

  async link(sessionId: string, alias: IdentityAlias): Promise<void> {
    try {
      await this.inner.link(sessionId, alias);
    } finally {
      // Once written: what was cached before goes, and a read still in flight (begun before the write's end) is not
      // kept. Until then the entries held are the store's answer.
      this.bump(sessionId);
      this.forget(sessionId, [alias.lid, alias.phone]);
    }
  }

  async aliasesOf(sessionId: string, id: string): Promise<string[]> {
    const key = keyOf(sessionId, id);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.now()) return [...cached.aliases];
    const writes = this.writes.get(sessionId) ?? 0;
    const aliases = await this.inner.aliasesOf(sessionId, id);
    if ((this.writes.get(sessionId) ?? 0) === writes) {
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(key, { aliases: [...aliases], expiresAt: this.now() + this.ttlMs });
    }
    return aliases;
  }

  /** Straight to the store: an export reads what is stored, not what was cached. */
  list(sessionId: string, after: string | null, limit: number): Promise<IdentityAliasPage> {
    return this.inner.list(sessionId, after, limit);
  }

  async deleteBySession(sessionId: string): Promise<void> {
    this.bump(sessionId);
    const prefix = keyOf(sessionId, '');
    for (const key of this.cache.keys()) if (key.startsWith(prefix)) this.cache.delete(key);
    await this.inner.deleteBySession(sessionId);
  }

  private bump(sessionId: string): void {
    this.writes.set(sessionId, (this.writes.get(sessionId) ?? 0) + 1);
  }

  /** Drops the entries of `ids` and every entry that pairs one of them (a phone's other LIDs). */
  private forget(sessionId: string, ids: readonly string[]): void {
    const prefix = keyOf(sessionId, '');
    for (const [key, entry] of this.cache) {
      if (!key.startsWith(prefix)) continue;
      const id = key.slice(prefix.length);
      if (ids.includes(id) || entry.aliases.some((other) => ids.includes(other))) this.cache.delete(key);
    }
  }
}

const keyOf = (sessionId: string, id: string) => `${sessionId}\u0000${id}`;
