/**
 * What only the SQLite batch store shows beyond its contract: batches belong to a session by foreign key (deleting
 * the session cascades, an unknown session is a 404), the table has the spec's snake_case columns, and a batch
 * reads back the same after a reopen of the file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { aBatch, aSession } from '#tests/helpers/builders.js';

describe('sqlite batch store', () => {
  let dir: string;
  let file: string;
  let data: DataStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-batches-'));
    file = path.join(dir, 'data.sqlite');
    data = openSqliteDataStore(file);
  });
  afterEach(async () => {
    await data.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the batches of a session with its row (cascade), and only those', async () => {
    const [gone, kept] = [aSession(), aSession()];
    for (const session of [gone, kept]) await data.sessions.create(session);
    await data.batches.create(aBatch({ sessionId: gone.id }));
    const batch = aBatch({ sessionId: kept.id });
    await data.batches.create(batch);

    expect(await data.sessions.delete(gone.id)).toBe(true);
    expect(await data.batches.listUnfinished(gone.id)).toEqual([]);
    expect(await data.batches.listUnfinished(kept.id)).toEqual([batch]);
    expect(await data.batches.countUnfinished()).toBe(1);
  });

  it('rejects a batch of an unknown session with NotFoundError, not a retryable 503', async () => {
    const batch = aBatch({ sessionId: '00000000-0000-4000-8000-000000000000' });
    await expect(data.batches.create(batch)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('stores the spec fields in snake_case columns and reads a batch back the same after a reopen', async () => {
    const session = aSession();
    await data.sessions.create(session);
    const batch = aBatch({ sessionId: session.id });
    await data.batches.create(batch);
    await data.close();

    const db = new Database(file, { readonly: true });
    try {
      const columns = db
        .prepare('SELECT name FROM pragma_table_info(?)')
        .all('message_batches')
        .map((row) => (row as { name: string }).name);
      expect(columns).toEqual([
        'id',
        'batch_id',
        'session_id',
        'status',
        'messages',
        'options',
        'progress',
        'results',
        'current_index',
        'created_at',
        'updated_at',
        'started_at',
        'completed_at',
      ]);
    } finally {
      db.close();
    }
    data = openSqliteDataStore(file);
    expect(await data.batches.find(session.id, batch.batchId)).toEqual(batch);
  });
});
