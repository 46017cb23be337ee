/**
 * The SQLite data store's `atomically` (what the data import replaces the data inside): every write of the work,
 * through any store and its group commit, lands together, or none does when the work throws.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';

describe('SQLite data store: atomically', () => {
  let dir: string;
  let data: DataStore;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-atomic-'));
    data = openSqliteDataStore(path.join(dir, 'data.db'));
  });
  afterEach(async () => {
    await data.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every write of work that finishes', async () => {
    const session = aSession();
    await data.atomically(async () => {
      await data.sessions.create(session);
      await Promise.all(
        [1, 2, 3].map((i) => data.messages.insert(aMessage({ sessionId: session.id, body: `${i}` }))),
      );
    });
    expect((await data.messages.scan(null, 10)).messages).toHaveLength(3);
  });

  it('undoes every write, deletes included, of work that throws', async () => {
    const kept = aSession();
    await data.sessions.create(kept);
    await data.messages.insert(aMessage({ sessionId: kept.id }));
    const fresh = aSession();
    await expect(
      data.atomically(async () => {
        await data.messages.deleteBySession(kept.id);
        await data.sessions.delete(kept.id);
        await data.sessions.create(fresh);
        await data.messages.insert(aMessage({ sessionId: fresh.id }));
        throw new Error('a bad row part-way');
      }),
    ).rejects.toThrow('a bad row part-way');
    expect(await data.sessions.findById(fresh.id)).toBeNull();
    expect(await data.sessions.findById(kept.id)).not.toBeNull();
    expect((await data.messages.scan(null, 10)).messages.map((m) => m.sessionId)).toEqual([kept.id]);
  });
});
