/**
 * Messages a gateway stored before a migration that indexes them, on real SQLite files: the full-text index
 * (0013_message_search) and the kept history counts (0014_message_counts) take in the old rows, and every later
 * change keeps them in step.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { DATA_STORE_MIGRATIONS } from '#shared/adapters/sqlite/data-store.migrations.js';
import { openSqlite, runMigrations } from '#shared/adapters/sqlite/sqlite-database.js';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { parseSearchQuery } from '#shared/domain/message-search.js';
import type { Session } from '#shared/domain/session.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';

/**
 * A data file migrated up to (not including) migration `before`, holding `sessions` written as that version did, and
 * a raw connection on it for the test's own old rows (the caller closes it).
 */
function legacyFile(dir: string, name: string, before: string, sessions: Session[]) {
  const file = path.join(dir, name);
  const db = openSqlite(file);
  runMigrations(
    db,
    DATA_STORE_MIGRATIONS.filter((migration) => migration.id < before),
  );
  db.close();
  const legacy = new Database(file);
  const insert = legacy.prepare(
    'INSERT INTO sessions (id, name, status, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const session of sessions) {
    insert.run(session.id, session.name, 'created', '{}', session.createdAt, session.updatedAt);
  }
  return { file, legacy };
}

describe('messages stored before a migration', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-message-migrations-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('indexes the messages stored before the search migration, which later changes keep up to date', async () => {
    const session = aSession();
    // The file still lacks the index: the rows are written the way a gateway of that version did.
    const { file, legacy } = legacyFile(dir, 'before-search.sqlite', '0010', [session]);
    const insert = legacy.prepare(
      `INSERT INTO messages (id, session_id, wa_message_id, chat_id, from_jid, to_jid, body, timestamp, created_at)
       VALUES (?, ?, ?, 'c@c.us', 'c@c.us', 'me@c.us', ?, ?, ?)`,
    );
    insert.run('m1', session.id, 'W1', 'Old news from Zürich', 1, new Date(1000).toISOString());
    insert.run('m2', session.id, 'W2', null, 2, new Date(2000).toISOString());
    legacy.close();

    const store = openSqliteDataStore(file);
    const search = (q: string) =>
      store.messages.search(
        { sessionId: session.id, terms: parseSearchQuery(q), maxMatches: 10 },
        { limit: 10, offset: 0 },
      );
    expect((await search('zurich news')).messages.map((m) => m.id)).toEqual(['m1']);
    await store.messages.insert(aMessage({ id: 'm3', sessionId: session.id, body: 'fresh news' }));
    expect((await search('news')).messages.map((m) => m.id)).toEqual(['m3', 'm1']);
    await store.close();
  });

  it('counts the messages stored before the counts migration; every later change keeps each total exact', async () => {
    const session = aSession();
    const other = aSession();
    const { file, legacy } = legacyFile(dir, 'before-counts.sqlite', '0014', [session, other]);
    const insert = legacy.prepare(
      `INSERT INTO messages (id, session_id, chat_id, from_jid, author, to_jid, timestamp, created_at)
       VALUES (?, ?, ?, ?, ?, 'me@c.us', ?, ?)`,
    );
    const rows: [string, string, string | null][] = [
      ['a@c.us', 'a@c.us', null],
      ['a@c.us', 'me@c.us', null],
      ['a@c.us', 'me@c.us', null],
      ['g@g.us', 'g@g.us', 'a@c.us'],
      ['g@g.us', 'g@g.us', 'b@c.us'],
      ['g@g.us', 'me@c.us', null],
    ];
    rows.forEach(([chat, from, author], i) => {
      insert.run(`m${i}`, session.id, chat, from, author, i, new Date(i * 1000).toISOString());
    });
    insert.run('o1', other.id, 'a@c.us', 'a@c.us', null, 1, new Date(0).toISOString());
    legacy.close();

    const store = openSqliteDataStore(file);
    const raw = new Database(file, { readonly: true });
    // Every filter's total against a count of the rows themselves.
    const expectExactTotals = async () => {
      const filters = [
        { sessionId: session.id },
        { sessionId: other.id },
        { sessionId: session.id, chatId: 'g@g.us' },
        { sessionId: session.id, chatId: ['a@c.us', 'g@g.us'] },
        { sessionId: session.id, from: 'me@c.us' },
        { sessionId: session.id, from: 'a@c.us' },
        { sessionId: session.id, from: ['a@c.us', 'b@c.us'] },
        { sessionId: session.id, chatId: 'g@g.us', from: 'a@c.us' },
      ];
      for (const filter of filters) {
        const chats = filter.chatId === undefined ? null : [filter.chatId].flat();
        const senders = filter.from === undefined ? null : [filter.from].flat();
        const counted = (
          raw
            .prepare('SELECT chat_id, from_jid, author FROM messages WHERE session_id = ?')
            .all(filter.sessionId) as {
            chat_id: string;
            from_jid: string;
            author: string | null;
          }[]
        ).filter(
          (row) =>
            (chats === null || chats.includes(row.chat_id)) &&
            (senders === null || senders.includes(row.from_jid) || senders.includes(row.author ?? '')),
        ).length;
        const { total } = await store.messages.list(filter, { limit: 1, offset: 0 });
        expect({ filter, total }).toEqual({ filter, total: counted });
      }
    };
    await expectExactTotals();
    expect(
      (await store.messages.list({ sessionId: session.id, from: 'me@c.us' }, { limit: 1, offset: 0 })).total,
    ).toBe(3);
    await store.messages.insert(
      aMessage({ id: 'n1', sessionId: session.id, chatId: 'g@g.us', from: 'g@g.us', author: 'b@c.us' }),
    );
    await store.messages.insert(
      aMessage({ id: 'n2', sessionId: session.id, chatId: 'a@c.us', from: 'me@c.us' }),
    );
    await expectExactTotals();
    const write = new Database(file);
    write.prepare("DELETE FROM messages WHERE id IN ('m1', 'm3')").run();
    // No code path moves a message today; the counts follow one all the same.
    write
      .prepare("UPDATE messages SET chat_id = 'c@c.us', from_jid = 'c@c.us', author = NULL WHERE id = 'm4'")
      .run();
    write.close();
    await expectExactTotals();
    await store.messages.deleteBySession(other.id);
    await store.sessions.delete(session.id);
    await expectExactTotals();
    expect(raw.prepare('SELECT count(*) AS n FROM message_counts').get()).toEqual({ n: 0 });
    raw.close();
    await store.close();
  });
});
