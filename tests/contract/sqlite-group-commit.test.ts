import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite, type SqliteDb } from '#shared/adapters/sqlite/sqlite-database.js';
import { groupCommitOf } from '#shared/adapters/sqlite/sqlite-group-commit.js';
import { writeSql } from '#shared/adapters/sqlite/sqlite-store-support.js';
import { AppError, ConflictError } from '#shared/errors/app-error.js';

// A real file in WAL mode, and a second connection that sees only what the first committed.
let dir: string;
let db: SqliteDb;
let other: Database.Database;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-group-commit-'));
  const file = path.join(dir, 'data.sqlite');
  db = openSqlite(file);
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  other = new Database(file);
});

afterEach(() => {
  other.close();
  if (db.open) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const insert =
  (id: string, n = 0) =>
  () =>
    db.prepare('INSERT INTO t (id, n) VALUES (?, ?)').run(id, n).changes;
const committed = () => other.prepare('SELECT id FROM t ORDER BY id').pluck().all();

describe('SqliteGroupCommit', () => {
  it('runs the writes of one turn in one transaction and settles them once it committed', async () => {
    const group = groupCommitOf(db);
    const seenByOthers: unknown[][] = [];
    const writes = [
      group.run(insert('a')),
      group.run(() => {
        seenByOthers.push(committed());
        return insert('b')();
      }),
      group.run(() => {
        seenByOthers.push(committed());
        return db.inTransaction;
      }),
    ];
    await expect(Promise.all(writes)).resolves.toEqual([1, 1, true]);
    // Inside the batch nothing was visible to another connection yet: all three were one open transaction.
    expect(seenByOthers).toEqual([[], []]);
    expect(committed()).toEqual(['a', 'b']);
  });

  it('rolls back a failing write alone; the others of its batch commit', async () => {
    const group = groupCommitOf(db);
    const failing = new Error('refused');
    const results = await Promise.allSettled([
      group.run(insert('a')),
      group.run(() => {
        insert('b')();
        throw failing;
      }),
      group.run(insert('a')), // a duplicate key: the driver's error, for this write only
      group.run(insert('c')),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toBe(failing);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(committed()).toEqual(['a', 'c']);
  });

  it('runs a write that is itself a transaction, in a batch (as a savepoint) and alone', async () => {
    const group = groupCommitOf(db);
    const pair = db.transaction((x: string, y: string) => {
      insert(x)();
      insert(y)();
      return 2;
    });
    await expect(
      Promise.all([group.run(() => pair.immediate('a', 'b')), group.run(insert('c'))]),
    ).resolves.toEqual([2, 1]);
    await expect(group.run(() => pair.immediate('d', 'e'))).resolves.toBe(2);
    // A transaction that fails half-way leaves nothing of itself behind, batched or not.
    const failed = await Promise.allSettled([
      group.run(() => pair.immediate('f', 'a')),
      group.run(insert('g')),
    ]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect(committed()).toEqual(['a', 'b', 'c', 'd', 'e', 'g']);
  });

  it('undoes an atomic write (a statement, a transaction) alone without a savepoint of its own', async () => {
    const group = groupCommitOf(db);
    const pair = db.transaction((x: string, y: string) => {
      insert(x)();
      insert(y)();
    });
    const trace: string[] = [];
    const traced = new Database(db.name, { verbose: (sql) => trace.push(String(sql)) });
    const tracedGroup = groupCommitOf(traced);
    const results = await Promise.allSettled([
      group.runAtomic(insert('a')),
      group.runAtomic(insert('a')), // a duplicate key: this statement alone is undone
      group.runAtomic(() => pair.immediate('b', 'a')), // fails half-way: its own savepoint undoes 'b'
      group.runAtomic(() => pair.immediate('c', 'd')),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(committed()).toEqual(['a', 'c', 'd']);
    // Single statements in a batch: BEGIN, the statements, COMMIT; no SAVEPOINT / RELEASE around each.
    await Promise.all([
      tracedGroup.runAtomic(() => traced.prepare('INSERT INTO t (id, n) VALUES (?, 0)').run('e')),
      tracedGroup.runAtomic(() => traced.prepare('INSERT INTO t (id, n) VALUES (?, 0)').run('f')),
    ]);
    traced.close();
    expect(trace.filter((sql) => /SAVEPOINT|RELEASE/i.test(sql))).toEqual([]);
    expect(committed()).toEqual(['a', 'c', 'd', 'e', 'f']);
  });

  it('runs a write alone in its turn without opening a transaction for it', async () => {
    await expect(groupCommitOf(db).run(() => db.inTransaction)).resolves.toBe(false);
  });

  it('takes a write asked for while a batch commits into the next batch', async () => {
    const group = groupCommitOf(db);
    const later: Promise<number>[] = [];
    const first = group.run(insert('a')).then((changes) => {
      later.push(group.run(insert('c')));
      return changes;
    });
    await Promise.all([first, group.run(insert('b'))]);
    expect(committed()).toEqual(['a', 'b']);
    await Promise.all(later);
    expect(committed()).toEqual(['a', 'b', 'c']);
  });

  it('rejects every write of a batch when its transaction cannot begin, and goes on with the next', async () => {
    db.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    const results = await Promise.allSettled([
      groupCommitOf(db).run(insert('a')),
      groupCommitOf(db).run(insert('b')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/locked|busy/i);
    other.exec('ROLLBACK');
    await Promise.all([groupCommitOf(db).run(insert('c')), groupCommitOf(db).run(insert('d'))]);
    expect(committed()).toEqual(['c', 'd']);
  });

  it('never autocommits the writes after the database rolled the batch back on its own', async () => {
    const group = groupCommitOf(db);
    const results = await Promise.allSettled([
      group.run(insert('a')),
      group.run(() => db.exec('ROLLBACK')),
      group.run(insert('b')),
    ]);
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    // Not even the write after the rollback: it did not run on its own, outside the batch.
    expect(committed()).toEqual([]);
    expect(db.inTransaction).toBe(false);
    await expect(Promise.all([group.run(insert('c')), group.run(insert('d'))])).resolves.toEqual([1, 1]);
  });

  it('rejects writes once the connection is closed', async () => {
    const write = groupCommitOf(db).run(insert('a'));
    db.close();
    await expect(write).rejects.toThrow(/not open/);
  });

  it('is one per connection', () => {
    expect(groupCommitOf(db)).toBe(groupCommitOf(db));
  });
});

describe('writeSql', () => {
  it('translates driver errors like runSql: a UNIQUE violation is a conflict, anything else a 503', async () => {
    await writeSql(db, 'Test store', insert('a'));
    await expect(writeSql(db, 'Test store', insert('a'))).rejects.toBeInstanceOf(ConflictError);
    const broken = writeSql(db, 'Test store', () => db.prepare('INSERT INTO missing VALUES (1)').run());
    await expect(broken).rejects.toMatchObject({ status: 503, code: 'DEPENDENCY_UNAVAILABLE' });
    await expect(broken).rejects.toBeInstanceOf(AppError);
  });
});
