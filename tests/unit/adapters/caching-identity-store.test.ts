/**
 * The host's identity cache (what its events read both ids of a person through): reads are served from the cache
 * until a pairing or the TTL drops them, a read that overlapped a pairing's write is answered but not kept, and a
 * session's delete drops its entries. The port's behaviour itself is the contract suite's (memory-stores.test.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { CachingIdentityStore } from '#shared/adapters/caching/caching-identity-store.js';
import { MemoryIdentityStore } from '#shared/adapters/memory/memory-identity-store.js';
import type { IdentityAlias } from '#shared/ports/identity-store.port.js';

const S = 'session-1';
const PHONE = '15550001111@c.us';
const LID = '123456789012345@lid';

/** A memory store that counts reads and can hold the next read until told. */
class ObservedStore extends MemoryIdentityStore {
  reads = 0;
  private hold: Promise<void> | null = null;
  private release = () => {};

  holdNextRead(): () => void {
    this.hold = new Promise((resolve) => {
      this.release = resolve;
    });
    return () => this.release();
  }

  override async aliasesOf(sessionId: string, id: string): Promise<string[]> {
    this.reads++;
    const answer = await super.aliasesOf(sessionId, id);
    const hold = this.hold;
    this.hold = null;
    if (hold) await hold;
    return answer;
  }
}

describe('CachingIdentityStore', () => {
  it('serves repeated reads from the cache, and a pairing drops what names either of its ids', async () => {
    const inner = new ObservedStore();
    const cache = new CachingIdentityStore(inner, 60_000);
    expect(await cache.aliasesOf(S, PHONE)).toEqual([]);
    expect(await cache.aliasesOf(S, PHONE)).toEqual([]);
    expect(inner.reads).toBe(1);
    await cache.link(S, { lid: LID, phone: PHONE });
    expect(await cache.aliasesOf(S, PHONE)).toEqual([LID]);
    expect(inner.reads).toBe(2);
  });

  it('answers a read that overlapped a pairing’s write but does not keep it', async () => {
    const inner = new ObservedStore();
    const cache = new CachingIdentityStore(inner, 60_000);
    const release = inner.holdNextRead();
    const stale = cache.aliasesOf(S, PHONE);
    await cache.link(S, { lid: LID, phone: PHONE } satisfies IdentityAlias);
    release();
    expect(await stale).toEqual([]);
    expect(await cache.aliasesOf(S, PHONE)).toEqual([LID]);
  });

  it('reads again once an entry is older than the TTL', async () => {
    const inner = new ObservedStore();
    let now = 0;
    const cache = new CachingIdentityStore(inner, 1_000, () => now);
    await cache.aliasesOf(S, LID);
    now = 999;
    await cache.aliasesOf(S, LID);
    expect(inner.reads).toBe(1);
    now = 1_001;
    await cache.aliasesOf(S, LID);
    expect(inner.reads).toBe(2);
  });

  it('drops a session’s entries when the session is deleted, not another’s', async () => {
    const inner = new ObservedStore();
    const cache = new CachingIdentityStore(inner, 60_000);
    await cache.link(S, { lid: LID, phone: PHONE });
    await cache.link('session-2', { lid: LID, phone: PHONE });
    await cache.aliasesOf(S, PHONE);
    await cache.aliasesOf('session-2', PHONE);
    await cache.deleteBySession(S);
    expect(await cache.aliasesOf(S, PHONE)).toEqual([]);
    expect(await cache.aliasesOf('session-2', PHONE)).toEqual([LID]);
    expect(inner.reads).toBe(3);
  });
});
