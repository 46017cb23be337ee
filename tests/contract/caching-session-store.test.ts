/** The session cache is a SessionStore too: the same contract over SQLite, plus its own invalidation rules. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { CachingSessionStore } from '#shared/adapters/caching/caching-session-store.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { aSession, T0 } from '#tests/helpers/builders.js';
import { sessionStoreContract } from './session-store.contract.js';

sessionStoreContract('caching(sqlite)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-session-cache-'));
  const data = openSqliteDataStore(path.join(dir, 'data.sqlite'));
  return { store: new CachingSessionStore(data.sessions, 60_000), close: () => data.close() };
});

describe('CachingSessionStore', () => {
  it('answers from memory after the first read, and sees its own writes at once', async () => {
    const inner = createMemoryDataStore().sessions;
    const cache = new CachingSessionStore(inner, 60_000, () => 0);
    const session = aSession({ status: 'created' });
    await cache.create(session);
    await cache.update(session.id, { status: 'initializing' }, { expectStatus: ['created'] });
    expect((await cache.findById(session.id))?.status).toBe('initializing');
    await cache.delete(session.id);
    expect(await cache.findById(session.id)).toBeNull();
  });

  it('re-reads a row changed behind its back once the TTL has passed', async () => {
    const inner = createMemoryDataStore().sessions;
    let now = 0;
    const cache = new CachingSessionStore(inner, 1000, () => now);
    const session = aSession({ status: 'created' });
    await cache.create(session);
    await inner.update(session.id, { status: 'failed' });
    expect((await cache.findById(session.id))?.status).toBe('created');
    now = 1001;
    expect((await cache.findById(session.id))?.status).toBe('failed');
  });

  it('keeps the cached row when a compare-and-set loses, refreshed to the current row', async () => {
    const inner = createMemoryDataStore().sessions;
    const cache = new CachingSessionStore(inner, 60_000, () => 0);
    const session = aSession({ status: 'ready' });
    await cache.create(session);
    await inner.update(session.id, { status: 'disconnected' });
    const result = await cache.update(session.id, { status: 'initializing' }, { expectStatus: ['created'] });
    expect(result.outcome).toBe('conflict');
    expect((await cache.findById(session.id))?.status).toBe('disconnected');
  });

  it('caches the row a lease operation answers, updated or conflict, and forgets a row found missing', async () => {
    const inner = createMemoryDataStore().sessions;
    const cache = new CachingSessionStore(inner, 60_000, () => 0);
    const session = aSession({ status: 'ready' });
    await cache.create(session);
    const claim = (nodeId: string) => ({ nodeId, nodeUrl: `http://${nodeId}`, now: T0, ttlMs: 60_000 });
    let edits = 0;
    // Changes the row behind the cache's back: a read that misses the change was answered from memory.
    const editBehind = () => inner.update(session.id, { pushName: `edit ${++edits}` });

    expect((await cache.claimLease(session.id, claim('node-a'))).outcome).toBe('updated');
    await editBehind();
    expect(await cache.findById(session.id)).toMatchObject({ nodeId: 'node-a', pushName: null });

    await inner.releaseLease(session.id, 'node-a');
    await inner.claimLease(session.id, claim('node-b'));
    expect((await cache.renewLease(session.id, claim('node-a'))).outcome).toBe('conflict');
    await editBehind();
    expect(await cache.findById(session.id)).toMatchObject({ nodeId: 'node-b', pushName: 'edit 1' });

    expect((await cache.releaseLease(session.id, 'node-b')).outcome).toBe('updated');
    await editBehind();
    expect(await cache.findById(session.id)).toMatchObject({ nodeId: null, pushName: 'edit 2' });

    await inner.delete(session.id);
    expect(await cache.claimLease(session.id, claim('node-a'))).toEqual({ outcome: 'not_found' });
    expect(await cache.findById(session.id)).toBeNull();
  });

  it('hands out copies, so a caller cannot change the cached row', async () => {
    const cache = new CachingSessionStore(createMemoryDataStore().sessions, 60_000, () => 0);
    const session = aSession({ config: { autoRejectCalls: true } });
    await cache.create(session);
    const read = await cache.findById(session.id);
    if (!read) throw new Error('missing');
    read.config.autoRejectCalls = false;
    read.name = 'changed';
    expect(await cache.findById(session.id)).toMatchObject({
      name: session.name,
      config: { autoRejectCalls: true },
    });
  });
});
