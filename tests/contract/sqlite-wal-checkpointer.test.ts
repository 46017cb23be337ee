/**
 * Checkpoints off the event loop (sqlite-wal-checkpointer.ts), on real files: what the event loop's connection
 * commits reaches the database file without that connection checkpointing, and closing the connection lets go of
 * the worker's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite, type SqliteDb } from '#shared/adapters/sqlite/sqlite-database.js';
import { FALLBACK_PAGES } from '#shared/adapters/sqlite/sqlite-wal-checkpointer.js';

let dir: string;
let file: string;
const open: Database.Database[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-checkpoint-'));
  file = path.join(dir, 'data.sqlite');
});

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function opened(): SqliteDb {
  const db = openSqlite(file);
  open.push(db);
  return db;
}

/** About 4 MB of pages in the WAL: four times what SQLite's default would have checkpointed in the COMMIT. */
function writeMegabytes(db: SqliteDb, megabytes: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO t (payload) VALUES (?)');
  // One row per transaction, as sends commit: each COMMIT is a chance for the connection to checkpoint itself.
  for (let i = 0; i < megabytes * 256; i++) insert.run(Buffer.alloc(4000, i % 251));
}

/**
 * Waits for the worker's checkpoint: a condition, not a timing. The bound is generous because a CI machine running
 * every project on two cores may leave the worker thread seconds behind (it missed 5 s once); two waits of a test
 * stay within the 30 s test timeout.
 */
async function eventually(check: () => boolean, timeoutMs = 12_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const size = (name: string) => (fs.existsSync(name) ? fs.statSync(name).size : 0);

describe('checkpoints in a worker thread', () => {
  it("moves the connection's own automatic checkpoint out of the way", () => {
    expect(opened().pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_PAGES);
  });

  it('copies what the connection committed into the database file while the connection never checkpoints', async () => {
    const db = opened();
    writeMegabytes(db, 4);
    // The rows are in the database file itself: the worker checkpointed them (this connection's threshold is
    // 40 MB of WAL, never reached here).
    await eventually(() => size(file) >= 4 * 1024 * 1024);
    // Whoever reads the file alone, without the WAL, finds them there.
    db.close();
    const reader = new Database(file, { readonly: true });
    open.push(reader);
    expect(reader.prepare('SELECT count(*) FROM t').pluck().get()).toBe(4 * 256);
  });

  it('keeps checkpointing a file while any of its connections is open, and lets it go after the last', async () => {
    const first = opened();
    const second = opened();
    first.close();
    writeMegabytes(second, 2);
    await eventually(() => size(file) >= 2 * 1024 * 1024);
    second.close();
    // SQLite removes the WAL when a file's last connection closes: the worker's is closed too.
    await eventually(() => !fs.existsSync(`${file}-wal`));
  });

  it('starts again for a file opened after every earlier one was closed', async () => {
    opened().close();
    const db = opened();
    writeMegabytes(db, 2);
    await eventually(() => size(file) >= 2 * 1024 * 1024);
  });
});
