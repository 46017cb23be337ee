/** The SQLite message store with its sessions on a real file: the cascade delete and an unknown session. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-messages-'));
}

describe('sqlite message store and its sessions', () => {
  let dir: string;
  let data: DataStore;
  beforeEach(() => {
    dir = tempDir();
    data = openSqliteDataStore(path.join(dir, 'data.sqlite'));
  });
  afterEach(async () => {
    await data.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the messages of a session with its row (cascade), and only those', async () => {
    const gone = aSession();
    const kept = aSession();
    for (const session of [gone, kept]) await data.sessions.create(session);
    await data.messages.insert(aMessage({ sessionId: gone.id, waMessageId: 'WA1' }));
    await data.messages.insert(aMessage({ sessionId: gone.id, waMessageId: null }));
    const other = aMessage({ sessionId: kept.id, waMessageId: 'WA1' });
    await data.messages.insert(other);

    expect(await data.sessions.delete(gone.id)).toBe(true);
    expect(await data.messages.list({ sessionId: gone.id }, { limit: 10, offset: 0 })).toEqual({
      messages: [],
      total: 0,
    });
    expect(await data.messages.findById(kept.id, other.id)).toEqual(other);
  });

  it('rejects a message for an unknown session with NotFoundError, not a retryable 503', async () => {
    const message = aMessage({ sessionId: '00000000-0000-4000-8000-000000000000' });
    await expect(data.messages.insert(message)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
