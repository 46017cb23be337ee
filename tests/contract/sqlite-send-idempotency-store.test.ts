/**
 * What only the SQLite adapter of SendIdempotencyStore does, beyond the contract: claims sweep expired keys in
 * passing (a bounded number each), a session's keys go with its row (cascade), and a claim for a session that is
 * not there is a 404 rather than a retryable 503.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { SEND_IDEMPOTENCY_TTL_MS } from '#shared/ports/send-idempotency-store.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { aSession, T0 } from '#tests/helpers/builders.js';

const HASH = 'c'.repeat(64);
const MESSAGE = '70000000-0000-4000-8000-000000000001';
const atMs = (ms: number) => new Date(T0.getTime() + ms);

describe('SqliteSendIdempotencyStore', () => {
  let dir: string;
  let file: string;
  let data: DataStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-send-keys-'));
    file = path.join(dir, 'data.sqlite');
    data = openSqliteDataStore(file);
  });
  afterEach(async () => {
    await data.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const claim = (sessionId: string, key: string, at: Date) =>
    data.sendIdempotency.claim({ sessionId, key, requestHash: HASH, messageId: MESSAGE }, at);

  /** Rows in the table, expired ones included. */
  function rows(): number {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT COUNT(*) FROM send_idempotency_keys').pluck().get() as number;
    } finally {
      db.close();
    }
  }

  it('sweeps expired keys with later claims, a bounded number per claim, keeping live ones', async () => {
    const session = aSession();
    await data.sessions.create(session);
    for (let i = 0; i < 40; i++) await claim(session.id, `old-${i}`, T0);
    await claim(session.id, 'live', atMs(1000));
    expect(rows()).toBe(41);

    const later = atMs(SEND_IDEMPOTENCY_TTL_MS + 1);
    await claim(session.id, 'new-1', later);
    expect(rows()).toBe(41 - 16 + 1);
    for (let i = 2; i <= 4; i++) await claim(session.id, `new-${i}`, later);
    expect(rows()).toBe(1 + 4);
    expect(await claim(session.id, 'live', later)).toMatchObject({
      claimed: false,
    });
  });

  it("removes a session's keys with its row", async () => {
    const [gone, kept] = [aSession(), aSession()];
    for (const session of [gone, kept]) {
      await data.sessions.create(session);
      await claim(session.id, 'k', T0);
    }
    await data.sessions.delete(gone.id);
    expect(rows()).toBe(1);
    expect(await claim(kept.id, 'k', T0)).toMatchObject({
      claimed: false,
    });
  });

  it('refuses a claim for an unknown session with NotFoundError', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expect(claim(unknown, 'k', T0)).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
