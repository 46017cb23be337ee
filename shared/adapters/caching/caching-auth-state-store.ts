/**
 * Read cache in front of any AuthStateStore (SQLite now, DynamoDB later). A Baileys socket reads the same Signal
 * sessions, sender keys and device lists over and over, and most lookups of unknown ids come back empty, so both
 * hits and known-absent ids are remembered.
 *
 * Write-through: the inner store is written first and the cache updated only once that write resolved, so the
 * cache never shows a change that is not durable, and a failed batch leaves nothing cached of it. Valid only while
 * this process is the session's single writer; `release` (ownership moves away) and `wipe` drop the session.
 *
 * Races: the inner store may be asynchronous, so a read that overlaps a write could return a value from before
 * that write. Such reads still answer, but never fill the cache; an overlapped write does not fill it either.
 * The affected entries are simply read from the store again next time.
 */
import { UnavailableError } from '../../errors/app-error.js';
import {
  type AuthKeyChange,
  type AuthStateStore,
  assertAuthSessionId,
  assertKeyChanges,
  assertKeyName,
} from '../../ports/auth-state-store.port.js';

/** Options of the auth-state cache. */
export interface CachingAuthStateStoreOptions {
  /**
   * Memory bound per session, counted in characters of cached ids and values (least recently used entries go
   * first). A busy session keeps its hot Signal sessions and sender keys; the whole budget is rarely reached.
   */
  maxCharsPerSession?: number;
}

/** Per-entry bookkeeping cost, in characters, so that many tiny entries also count against the budget. */
const ENTRY_OVERHEAD = 32;

interface SessionCache {
  /** undefined: not known; null: known to be absent. */
  credentials: string | null | undefined;
  /** Encoded (category, id) → value, or null for a known-absent key; Map order is least recently used first. */
  entries: Map<string, string | null>;
  chars: number;
  /** Count of writes started; a read fills the cache only if none started while it ran. */
  writesStarted: number;
  writesInFlight: number;
}

interface ReadTicket {
  cache: SessionCache;
  writesStarted: number;
  clean: boolean;
}

/** Length-prefixed, so no (category, id) pair can collide with another whatever characters they contain. */
const entryKey = (category: string, id: string): string => `${category.length}:${category}${id}`;

/** An AuthStateStore decorator answering repeated reads from per-session memory. */
export class CachingAuthStateStore implements AuthStateStore {
  private readonly caches = new Map<string, SessionCache>();
  private readonly maxChars: number;
  private closed = false;

  constructor(
    private readonly inner: AuthStateStore,
    options: CachingAuthStateStoreOptions = {},
  ) {
    this.maxChars = options.maxCharsPerSession ?? 1_000_000;
  }

  async readCredentials(sessionId: string): Promise<string | null> {
    const cache = this.cacheOf(sessionId);
    if (cache.credentials !== undefined) return cache.credentials;
    const ticket = this.ticket(cache);
    const document = await this.inner.readCredentials(sessionId);
    if (this.mayFill(sessionId, ticket)) cache.credentials = document;
    return document;
  }

  async writeCredentials(sessionId: string, document: string): Promise<void> {
    const cache = this.cacheOf(sessionId);
    cache.credentials = undefined;
    await this.writing(
      sessionId,
      cache,
      () => this.inner.writeCredentials(sessionId, document),
      () => {
        cache.credentials = document;
      },
    );
  }

  async hasCredentials(sessionId: string): Promise<boolean> {
    const cache = this.cacheOf(sessionId);
    if (cache.credentials !== undefined) return cache.credentials !== null;
    return this.inner.hasCredentials(sessionId);
  }

  async readKeys(sessionId: string, category: string, ids: readonly string[]): Promise<Map<string, string>> {
    const cache = this.cacheOf(sessionId);
    assertKeyName(category, 'category');
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const key = entryKey(category, id);
      const value = cache.entries.get(key);
      if (value === undefined) {
        missing.push(id);
        continue;
      }
      // Re-inserting moves the entry to the most recently used end.
      cache.entries.delete(key);
      cache.entries.set(key, value);
      if (value !== null) found.set(id, value);
    }
    if (missing.length === 0) return found;
    const ticket = this.ticket(cache);
    const fetched = await this.inner.readKeys(sessionId, category, missing);
    const fill = this.mayFill(sessionId, ticket);
    for (const id of missing) {
      const value = fetched.get(id);
      if (value !== undefined) found.set(id, value);
      if (fill) this.remember(cache, entryKey(category, id), value ?? null);
    }
    return found;
  }

  async writeKeys(sessionId: string, changes: readonly AuthKeyChange[]): Promise<void> {
    const cache = this.cacheOf(sessionId);
    assertKeyChanges(changes);
    for (const { category, id } of changes) this.forget(cache, entryKey(category, id));
    await this.writing(
      sessionId,
      cache,
      () => this.inner.writeKeys(sessionId, changes),
      () => {
        // In order, so a key named twice ends with its last value, as in the store.
        for (const { category, id, value } of changes) this.remember(cache, entryKey(category, id), value);
      },
    );
  }

  async wipe(sessionId: string): Promise<void> {
    this.check(sessionId);
    this.caches.delete(sessionId);
    await this.inner.wipe(sessionId);
    // Again: a read that ran during a slow wipe may have started a fresh cache from half-wiped data.
    this.caches.delete(sessionId);
  }

  async release(sessionId: string): Promise<void> {
    this.check(sessionId);
    this.caches.delete(sessionId);
    await this.inner.release(sessionId);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.caches.clear();
    await this.inner.close();
  }

  /**
   * Runs a write through the inner store and then, only if no other write of the session overlapped it, `fill`s
   * the cache with what was written; otherwise the entries stay forgotten and the next read asks the store.
   */
  private async writing(
    sessionId: string,
    cache: SessionCache,
    write: () => Promise<void>,
    fill: () => void,
  ): Promise<void> {
    cache.writesStarted += 1;
    const mine = cache.writesStarted;
    cache.writesInFlight += 1;
    try {
      await write();
      const alone = cache.writesStarted === mine && cache.writesInFlight === 1;
      if (alone && this.caches.get(sessionId) === cache) fill();
    } finally {
      cache.writesInFlight -= 1;
    }
  }

  private ticket(cache: SessionCache): ReadTicket {
    return { cache, writesStarted: cache.writesStarted, clean: cache.writesInFlight === 0 };
  }

  /** A read may fill the cache when no write ran during it and the session was not wiped or released meanwhile. */
  private mayFill(sessionId: string, ticket: ReadTicket): boolean {
    const { cache } = ticket;
    return (
      ticket.clean && cache.writesStarted === ticket.writesStarted && this.caches.get(sessionId) === cache
    );
  }

  private remember(cache: SessionCache, key: string, value: string | null): void {
    this.forget(cache, key);
    const size = key.length + (value?.length ?? 0) + ENTRY_OVERHEAD;
    if (size > this.maxChars) return;
    cache.entries.set(key, value);
    cache.chars += size;
    for (const [oldest, oldValue] of cache.entries) {
      if (cache.chars <= this.maxChars) break;
      this.forget(cache, oldest, oldValue);
    }
  }

  private forget(cache: SessionCache, key: string, known?: string | null): void {
    const value = known === undefined ? cache.entries.get(key) : known;
    if (value === undefined || !cache.entries.delete(key)) return;
    cache.chars -= key.length + (value?.length ?? 0) + ENTRY_OVERHEAD;
  }

  /** The session's cache, created empty on first use; refuses invalid ids and calls after close. */
  private cacheOf(sessionId: string): SessionCache {
    this.check(sessionId);
    let cache = this.caches.get(sessionId);
    if (cache === undefined) {
      cache = { credentials: undefined, entries: new Map(), chars: 0, writesStarted: 0, writesInFlight: 0 };
      this.caches.set(sessionId, cache);
    }
    return cache;
  }

  private check(sessionId: string): void {
    if (this.closed) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Auth-state store is unavailable');
    assertAuthSessionId(sessionId);
  }
}
