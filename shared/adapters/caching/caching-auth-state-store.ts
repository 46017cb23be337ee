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
 * that write. Such reads still answer, but never fill the cache; an overlapped write does not fill it either, as
 * the store may have applied the two in either order. The entries are simply read from the store next time.
 * Overlaps are tracked per category (a "lane"), because outside its own transactions Baileys writes the types of
 * one `keys.set` as parallel calls: those touch different categories and must not spoil each other's caching.
 */
import { UnavailableError } from '#shared/errors/app-error.js';
import {
  type AuthKeyChange,
  type AuthStateSnapshot,
  type AuthStateStore,
  assertAuthSessionId,
  assertKeyChanges,
  assertKeyName,
} from '#shared/ports/auth-state-store.port.js';

/** Options of the auth-state cache. */
export interface CachingAuthStateStoreOptions {
  /**
   * Memory bound per session, counted in characters of cached ids and values (least recently used entries go
   * first). A busy session keeps its hot Signal sessions and sender keys; the whole budget is rarely reached.
   */
  maxCharsPerSession?: number;
  /**
   * Categories never cached: keys written in bulk and read at most once, which would only crowd the budget and the
   * heap (Signal's one-time pre-keys: hundreds written when a device links, each read once when a contact opens a
   * session with it, then deleted).
   */
  uncachedCategories?: readonly string[];
}

/** Per-entry bookkeeping cost, in characters, so that many tiny entries also count against the budget. */
const ENTRY_OVERHEAD = 32;

/** Write traffic of one category (or of the credentials): a read fills the cache only if none ran meanwhile. */
interface Lane {
  started: number;
  inFlight: number;
}

interface SessionCache {
  /** undefined: not known; null: known to be absent. */
  credentials: string | null | undefined;
  credentialsLane: Lane;
  /** Encoded (category, id) → value, or null for a known-absent key; Map order is least recently used first. */
  entries: Map<string, string | null>;
  chars: number;
  /** By category; as few as the engine has categories, so they are kept for the session's lifetime. */
  lanes: Map<string, Lane>;
}

interface ReadTicket {
  lane: Lane;
  started: number;
  clean: boolean;
}

/** Length-prefixed, so no (category, id) pair can collide with another whatever characters they contain. */
const entryKey = (category: string, id: string): string => `${category.length}:${category}${id}`;

/** An AuthStateStore decorator answering repeated reads from per-session memory. */
export class CachingAuthStateStore implements AuthStateStore {
  private readonly caches = new Map<string, SessionCache>();
  private readonly maxChars: number;
  private readonly uncached: ReadonlySet<string>;
  private closed = false;

  constructor(
    private readonly inner: AuthStateStore,
    options: CachingAuthStateStoreOptions = {},
  ) {
    this.maxChars = options.maxCharsPerSession ?? 1_000_000;
    this.uncached = new Set(options.uncachedCategories ?? []);
  }

  async readCredentials(sessionId: string): Promise<string | null> {
    const cache = this.cacheOf(sessionId);
    if (cache.credentials !== undefined) return cache.credentials;
    const ticket = this.ticket(cache.credentialsLane);
    const document = await this.inner.readCredentials(sessionId);
    if (this.mayFill(ticket)) cache.credentials = document;
    return document;
  }

  async writeCredentials(sessionId: string, document: string): Promise<void> {
    const cache = this.cacheOf(sessionId);
    cache.credentials = undefined;
    await this.writing(
      [cache.credentialsLane],
      () => this.inner.writeCredentials(sessionId, document),
      (alone) => {
        if (alone.size > 0) cache.credentials = document;
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
    if (this.uncached.has(category)) return this.inner.readKeys(sessionId, category, ids);
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
    const ticket = this.ticket(this.laneOf(cache, category));
    const fetched = await this.inner.readKeys(sessionId, category, missing);
    const fill = this.mayFill(ticket);
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
    const lanes = new Set<Lane>();
    for (const { category, id } of changes) {
      this.forget(cache, entryKey(category, id));
      lanes.add(this.laneOf(cache, category));
    }
    await this.writing(
      [...lanes],
      () => this.inner.writeKeys(sessionId, changes),
      (alone) => {
        // In order, so a key named twice ends with its last value, as in the store.
        for (const { category, id, value } of changes) {
          if (this.uncached.has(category) || !alone.has(this.laneOf(cache, category))) continue;
          this.remember(cache, entryKey(category, id), value);
        }
      },
    );
  }

  /** Straight from the store: every write resolved reached it already, and an export is no hot path. */
  async readAll(sessionId: string): Promise<AuthStateSnapshot> {
    this.check(sessionId);
    return this.inner.readAll(sessionId);
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
   * Runs a write through the inner store, then `fill`s the cache for the lanes no other write overlapped (none
   * started after it, none still running); entries of the other lanes stay forgotten until read from the store.
   * A write to a session dropped meanwhile (wipe, release) fills a detached cache, which is harmless.
   */
  private async writing(
    lanes: readonly Lane[],
    write: () => Promise<void>,
    fill: (alone: ReadonlySet<Lane>) => void,
  ): Promise<void> {
    const mine = lanes.map((lane) => {
      lane.started += 1;
      lane.inFlight += 1;
      return lane.started;
    });
    try {
      await write();
      fill(new Set(lanes.filter((lane, i) => lane.started === mine[i] && lane.inFlight === 1)));
    } finally {
      for (const lane of lanes) lane.inFlight -= 1;
    }
  }

  private ticket(lane: Lane): ReadTicket {
    return { lane, started: lane.started, clean: lane.inFlight === 0 };
  }

  /**
   * A read may fill the cache when no write of its lane ran at any time during it. A read that overlapped a wipe
   * or release fills the detached cache of before, which nothing reads any more.
   */
  private mayFill(ticket: ReadTicket): boolean {
    return ticket.clean && ticket.lane.started === ticket.started;
  }

  private laneOf(cache: SessionCache, category: string): Lane {
    let lane = cache.lanes.get(category);
    if (lane === undefined) {
      lane = { started: 0, inFlight: 0 };
      cache.lanes.set(category, lane);
    }
    return lane;
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
      cache = {
        credentials: undefined,
        credentialsLane: { started: 0, inFlight: 0 },
        entries: new Map(),
        chars: 0,
        lanes: new Map(),
      };
      this.caches.set(sessionId, cache);
    }
    return cache;
  }

  private check(sessionId: string): void {
    if (this.closed) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Auth-state store is unavailable');
    assertAuthSessionId(sessionId);
  }
}
