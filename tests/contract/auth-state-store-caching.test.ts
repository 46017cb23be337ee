/**
 * The auth-state cache's own rules (its AuthStateStore contract runs in auth-state-stores.test.ts): repeated and
 * known-absent reads stay in memory, writes are visible at once but only once durable, overlapping reads and
 * writes never leave a stale entry, and release, wipe and the memory budget drop what they should.
 */
import { CachingAuthStateStore } from '#shared/adapters/caching/caching-auth-state-store.js';
import { MemoryAuthStateStore } from '#shared/adapters/memory/memory-auth-state-store.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { AuthKeyChange } from '#shared/ports/auth-state-store.port.js';

const S = 'a1b2c3d4-0000-4000-8000-000000000001';

const put = (id: string, value: string | null): AuthKeyChange => ({ category: 'session', id, value });

/** A memory store that counts the ids it is asked for and can hold calls at a gate, like a slow remote store. */
class ProbedStore extends MemoryAuthStateStore {
  askedIds: string[] = [];
  credentialReads = 0;
  gate: Promise<void> | null = null;
  /** Whether a held write applies before waiting at the gate (answer delayed) or after (write delayed). */
  applyThenWait = false;
  failWrites = false;

  override async readKeys(sessionId: string, category: string, ids: readonly string[]) {
    this.askedIds.push(...ids);
    const held = this.gate;
    // Reads the value now and answers later: the answer can be overtaken by a write.
    const answer = await super.readKeys(sessionId, category, ids);
    if (held) await held;
    return answer;
  }

  override async readCredentials(sessionId: string) {
    this.credentialReads += 1;
    return super.readCredentials(sessionId);
  }

  override async writeCredentials(sessionId: string, document: string) {
    await this.held(() => super.writeCredentials(sessionId, document));
  }

  override async writeKeys(sessionId: string, changes: readonly AuthKeyChange[]) {
    if (this.failWrites) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'down');
    await this.held(() => super.writeKeys(sessionId, changes));
  }

  private async held(write: () => Promise<void>): Promise<void> {
    const held = this.gate;
    if (this.applyThenWait) await write();
    if (held) await held;
    if (!this.applyThenWait) await write();
  }
}

function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

const values = async (cache: CachingAuthStateStore, ids: string[]) =>
  Object.fromEntries(await cache.readKeys(S, 'session', ids));

describe('CachingAuthStateStore', () => {
  let inner: ProbedStore;
  let cache: CachingAuthStateStore;
  beforeEach(() => {
    inner = new ProbedStore();
    cache = new CachingAuthStateStore(inner);
  });

  it('answers repeated reads, known-absent ids included, from memory and asks only for unknown ids', async () => {
    await inner.writeKeys(S, [put('a', 'A')]);
    expect(await values(cache, ['a', 'missing'])).toEqual({ a: 'A' });
    expect(await values(cache, ['a', 'missing'])).toEqual({ a: 'A' });
    expect(await values(cache, ['a', 'new'])).toEqual({ a: 'A' });
    expect(inner.askedIds).toEqual(['a', 'missing', 'new']);
  });

  it('serves its own writes and deletes without reading them back', async () => {
    await cache.writeKeys(S, [put('a', 'A'), put('b', 'B')]);
    await cache.writeKeys(S, [put('b', null)]);
    await cache.writeCredentials(S, 'creds');
    expect(await values(cache, ['a', 'b'])).toEqual({ a: 'A' });
    expect(await cache.readCredentials(S)).toBe('creds');
    expect(await cache.hasCredentials(S)).toBe(true);
    expect(inner.askedIds).toEqual([]);
    expect(inner.credentialReads).toBe(0);
  });

  it('caches nothing of an uncached category, written or read, and still caches the others', async () => {
    const preKeys = new CachingAuthStateStore(inner, { uncachedCategories: ['pre-key'] });
    await preKeys.writeKeys(S, [
      { category: 'pre-key', id: '1', value: 'P1' },
      { category: 'session', id: 'a', value: 'A' },
    ]);
    const read = async (category: string, id: string) =>
      Object.fromEntries(await preKeys.readKeys(S, category, [id]));
    expect(await read('pre-key', '1')).toEqual({ '1': 'P1' });
    expect(await read('pre-key', '1')).toEqual({ '1': 'P1' });
    expect(await read('session', 'a')).toEqual({ a: 'A' });
    expect(inner.askedIds).toEqual(['1', '1']);
  });

  it('keeps nothing of a write the store refused and serves the stored values after it', async () => {
    await cache.writeKeys(S, [put('a', 'A')]);
    inner.failWrites = true;
    await expect(cache.writeKeys(S, [put('a', 'A2'), put('b', 'B')])).rejects.toBeInstanceOf(
      UnavailableError,
    );
    inner.failWrites = false;
    expect(await values(cache, ['a', 'b'])).toEqual({ a: 'A' });
  });

  it('does not cache a read answered before a write that finished first', async () => {
    await cache.writeKeys(S, [put('a', 'old')]);
    await cache.release(S);
    const slow = gate();
    inner.gate = slow.wait;
    const read = cache.readKeys(S, 'session', ['a']);
    inner.gate = null;
    await cache.writeKeys(S, [put('a', 'new')]);
    slow.open();
    expect((await read).get('a')).toBe('old');
    expect(await values(cache, ['a'])).toEqual({ a: 'new' });
  });

  it('does not cache a read that ran while a write was in flight, even if the write finished first', async () => {
    await cache.writeKeys(S, [put('a', 'old')]);
    await cache.release(S);
    const writeGate = gate();
    const readGate = gate();
    inner.gate = writeGate.wait;
    const write = cache.writeKeys(S, [put('a', 'new')]);
    inner.gate = readGate.wait;
    const read = cache.readKeys(S, 'session', ['a']);
    inner.gate = null;
    writeGate.open();
    await write;
    readGate.open();
    expect((await read).get('a')).toBe('old');
    expect(await values(cache, ['a'])).toEqual({ a: 'new' });
  });

  it.each([
    ['applied in the order they finish', false],
    ['applied in the opposite order', true],
  ])('leaves keys and credentials of overlapping writes to the store when %s', async (_, applyThenWait) => {
    inner.applyThenWait = applyThenWait;
    await cache.writeKeys(S, [put('a', 'zero')]);
    await cache.writeCredentials(S, 'zero');
    const first = gate();
    inner.gate = first.wait;
    const slowWrites = [cache.writeKeys(S, [put('a', 'first')]), cache.writeCredentials(S, 'first')];
    inner.gate = null;
    await cache.writeKeys(S, [put('a', 'second')]);
    await cache.writeCredentials(S, 'second');
    first.open();
    await Promise.all(slowWrites);
    const stored = (await inner.readKeys(S, 'session', ['a'])).get('a');
    expect(stored).toBe(applyThenWait ? 'second' : 'first');
    expect(await values(cache, ['a'])).toEqual({ a: stored });
    expect(await cache.readCredentials(S)).toBe(await inner.readCredentials(S));
  });

  it('keeps caching parallel writes of different categories, as Baileys issues them', async () => {
    const slow = gate();
    inner.gate = slow.wait;
    const sessions = cache.writeKeys(S, [put('a', 'A')]);
    inner.gate = null;
    await cache.writeKeys(S, [{ category: 'pre-key', id: '1', value: 'P' }]);
    await cache.writeCredentials(S, 'creds');
    slow.open();
    await sessions;
    expect(await values(cache, ['a'])).toEqual({ a: 'A' });
    expect(Object.fromEntries(await cache.readKeys(S, 'pre-key', ['1']))).toEqual({ '1': 'P' });
    expect(await cache.readCredentials(S)).toBe('creds');
    expect(inner.askedIds).toEqual([]);
    expect(inner.credentialReads).toBe(0);
  });

  it('drops the session on release, so changes by another writer show afterwards', async () => {
    await cache.writeKeys(S, [put('a', 'mine')]);
    await cache.writeCredentials(S, 'mine');
    await inner.writeKeys(S, [put('a', 'theirs')]);
    await inner.writeCredentials(S, 'theirs');
    expect(await values(cache, ['a'])).toEqual({ a: 'mine' });
    await cache.release(S);
    expect(await values(cache, ['a'])).toEqual({ a: 'theirs' });
    expect(await cache.readCredentials(S)).toBe('theirs');
  });

  it('does not refill a wiped session from a read that was under way during the wipe', async () => {
    await cache.writeKeys(S, [put('a', 'A')]);
    await cache.release(S);
    const slow = gate();
    inner.gate = slow.wait;
    const read = cache.readKeys(S, 'session', ['a']);
    inner.gate = null;
    await cache.wipe(S);
    slow.open();
    expect((await read).get('a')).toBe('A');
    expect(await values(cache, ['a'])).toEqual({});
  });

  it('stays within its memory budget by dropping the least recently used entries first', async () => {
    // Each entry costs about 100 characters (id, value, overhead): three fit in 350.
    const small = new CachingAuthStateStore(inner, { maxCharsPerSession: 350 });
    await inner.writeKeys(
      S,
      ['k0', 'k1', 'k2', 'k3'].map((id) => put(id, 'x'.repeat(60))),
    );
    await small.readKeys(S, 'session', ['k0', 'k1', 'k2']);
    await small.readKeys(S, 'session', ['k0']);
    await small.readKeys(S, 'session', ['k3']);
    inner.askedIds = [];
    await small.readKeys(S, 'session', ['k0', 'k2', 'k3']);
    expect(inner.askedIds).toEqual([]);
    await small.readKeys(S, 'session', ['k1']);
    expect(inner.askedIds).toEqual(['k1']);
    // A value larger than the whole budget is written through but never cached.
    const huge = 'y'.repeat(1000);
    await small.writeKeys(S, [put('huge', huge)]);
    inner.askedIds = [];
    expect((await small.readKeys(S, 'session', ['huge'])).get('huge')).toBe(huge);
    expect(inner.askedIds).toEqual(['huge']);
  });

  it('closes the inner store and refuses calls afterwards, cached sessions included', async () => {
    await cache.writeKeys(S, [put('a', 'A')]);
    await cache.close();
    await expect(cache.readKeys(S, 'session', ['a'])).rejects.toBeInstanceOf(UnavailableError);
    await expect(inner.readKeys(S, 'session', ['a'])).rejects.toBeInstanceOf(UnavailableError);
  });
});
