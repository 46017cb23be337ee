/**
 * What only the SQLite auth-state store promises: state on disk that survives a reopen and a SIGKILLed process,
 * batches that roll back when SQLite itself fails half-way, one private folder per session, and no path escapes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { AUTH_STATE_FILE, SqliteAuthStateStore } from '#shared/adapters/sqlite/sqlite-auth-state-store.js';
import { UnavailableError, ValidationError } from '#shared/errors/app-error.js';
import type { AuthKeyChange } from '#shared/ports/auth-state-store.port.js';

const SESSION = '3d5e7f90-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

// The child runs the real adapter, bundled from source for plain Node. Per iteration it writes a batch of three
// keys, then credentials naming that batch, then acknowledges on stdout (synchronous for pipes on Linux). In
// `self` mode it SIGKILLs itself the moment the last write resolved: no close, no exit handlers, no checkpoint.
const CHILD_SOURCE = `
import { SqliteAuthStateStore } from './shared/adapters/sqlite/sqlite-auth-state-store.ts';

const [authDir, sessionId, mode, limit] = process.argv.slice(2);
const store = new SqliteAuthStateStore(authDir);
for (let i = 0; ; i++) {
  await store.writeKeys(sessionId, ['a', 'b', 'c'].map((k) => ({ category: 'session', id: k + i, value: k + '-' + i })));
  await store.writeCredentials(sessionId, JSON.stringify({ through: i }));
  process.stdout.write(i + '\\n');
  if (mode === 'self' && i + 1 === Number(limit)) process.kill(process.pid, 'SIGKILL');
}
`;

let scratch: string;
let childFile: string;
let dir: string;

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-auth-child-'));
  childFile = path.join(scratch, 'auth-writer.mjs');
  const root = process.cwd();
  const sqliteEntry = createRequire(path.join(root, 'package.json')).resolve('better-sqlite3');
  await build({
    stdin: { contents: CHILD_SOURCE, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: childFile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'native-sqlite',
        setup(plugin) {
          plugin.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: sqliteEntry, external: true }));
        },
      },
    ],
  });
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-auth-sqlite-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

interface ChildRun {
  acked: number[];
  signal: NodeJS.Signals | null;
}

/**
 * Runs the writer child until it dies by a signal: in `self` mode it kills itself after `count` iterations, in
 * `parent` mode this process SIGKILLs it as soon as `count` iterations were acknowledged, while it keeps writing.
 */
function runWriter(mode: 'self' | 'parent', count: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childFile, dir, SESSION, mode, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: number[] = [];
    let pending = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) acked.push(Number(line));
      if (mode === 'parent' && acked.length >= count && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (signal === null) reject(new Error(`writer exited with ${code}: ${stderr}`));
      else resolve({ acked, signal });
    });
  });
}

const keysOf = (i: number): AuthKeyChange[] =>
  ['a', 'b', 'c'].map((k) => ({ category: 'session', id: `${k}${i}`, value: `${k}-${i}` }));

describe('SqliteAuthStateStore on disk', () => {
  it('keeps credentials and keys across closing and opening a new store on the same folder', async () => {
    const first = new SqliteAuthStateStore(dir);
    await first.writeCredentials(SESSION, '{"me":"x"}');
    await first.writeKeys(SESSION, [...keysOf(1), { category: 'session', id: 'a1', value: null }]);
    await first.close();

    const again = new SqliteAuthStateStore(dir);
    expect(await again.readCredentials(SESSION)).toBe('{"me":"x"}');
    expect(Object.fromEntries(await again.readKeys(SESSION, 'session', ['a1', 'b1', 'c1']))).toEqual({
      b1: 'b-1',
      c1: 'c-1',
    });
    await again.close();
  });

  it('loses nothing when the writing process is SIGKILLed right after a write resolved', async () => {
    const run = await runWriter('self', 200);
    expect(run.signal).toBe('SIGKILL');
    expect(run.acked).toHaveLength(200);
    // The connection was never closed, so the WAL was not folded back: recovery has to replay it.
    expect(fs.existsSync(path.join(dir, SESSION, `${AUTH_STATE_FILE}-wal`))).toBe(true);

    const store = new SqliteAuthStateStore(dir);
    expect(await store.readCredentials(SESSION)).toBe(JSON.stringify({ through: 199 }));
    const ids = Array.from({ length: 200 }, (_, i) => ['a', 'b', 'c'].map((k) => `${k}${i}`)).flat();
    const found = await store.readKeys(SESSION, 'session', ids);
    expect(found.size).toBe(600);
    expect(found.get('c199')).toBe('c-199');
    await store.close();
  });

  it('keeps every acknowledged write, whole batches only, when killed mid-stream by another process', async () => {
    const run = await runWriter('parent', 150);
    expect(run.signal).toBe('SIGKILL');
    const lastAcked = run.acked.at(-1) ?? -1;
    expect(lastAcked).toBeGreaterThanOrEqual(149);

    const store = new SqliteAuthStateStore(dir);
    const credentials = JSON.parse((await store.readCredentials(SESSION)) ?? 'null') as { through: number };
    expect(credentials.through).toBeGreaterThanOrEqual(lastAcked);
    // Probe past the credentials too: a batch written after them may have committed before the kill.
    const ids = Array.from({ length: credentials.through + 3 }, (_, i) => keysOf(i).map((c) => c.id)).flat();
    const found = await store.readKeys(SESSION, 'session', ids);
    for (let i = 0; i < credentials.through + 3; i++) {
      const present = keysOf(i).filter((change) => found.get(change.id) === change.value).length;
      // Never a partial batch, and never credentials ahead of the keys written before them.
      expect([0, 3]).toContain(present);
      if (i <= credentials.through) expect(present).toBe(3);
    }
    await store.close();
  });

  it('rolls the whole batch back when SQLite fails in the middle of it', async () => {
    const store = new SqliteAuthStateStore(dir);
    await store.writeKeys(SESSION, [
      { category: 'session', id: 'a', value: 'A' },
      { category: 'session', id: 'b', value: 'B' },
    ]);
    // Another connection adds a trigger that aborts the third statement of the next batch, after two ran.
    const raw = new Database(path.join(dir, SESSION, AUTH_STATE_FILE));
    raw.exec(`CREATE TRIGGER fail_poison BEFORE INSERT ON auth_keys WHEN NEW.id = 'poison'
              BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    raw.close();
    const batch: AuthKeyChange[] = [
      { category: 'session', id: 'a', value: 'A2' },
      { category: 'session', id: 'b', value: null },
      { category: 'session', id: 'poison', value: 'P' },
      { category: 'session', id: 'c', value: 'C' },
    ];
    const failure = store.writeKeys(SESSION, batch);
    await expect(failure).rejects.toBeInstanceOf(UnavailableError);
    await expect(failure).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', retryable: true });
    const found = await store.readKeys(SESSION, 'session', ['a', 'b', 'poison', 'c']);
    expect(Object.fromEntries(found)).toEqual({ a: 'A', b: 'B' });
    // The connection is still usable afterwards.
    await store.writeKeys(SESSION, batch.slice(0, 2));
    expect(Object.fromEntries(await store.readKeys(SESSION, 'session', ['a', 'b']))).toEqual({ a: 'A2' });
    await store.close();
  });

  it('keeps each session in a private folder of its own and wipe removes that folder', async () => {
    const store = new SqliteAuthStateStore(dir);
    await store.writeCredentials(SESSION, 'creds');
    const sessionDir = path.join(dir, SESSION);
    expect((fs.statSync(sessionDir).mode & 0o777).toString(8)).toBe('700');
    expect((fs.statSync(path.join(sessionDir, AUTH_STATE_FILE)).mode & 0o777).toString(8)).toBe('600');
    await store.wipe(SESSION);
    expect(fs.existsSync(sessionDir)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
    // A tombstone left by a crash in the middle of an earlier wipe goes with the next wipe of that session.
    const leftover = path.join(dir, `.wiped-${SESSION}-1`);
    fs.mkdirSync(leftover);
    fs.writeFileSync(path.join(leftover, `${AUTH_STATE_FILE}-wal`), 'stale');
    await store.wipe(SESSION);
    expect(fs.readdirSync(dir)).toEqual([]);
    await store.close();
  });

  it('creates no files for reads, empty batches or delete-only batches of an unknown session', async () => {
    const store = new SqliteAuthStateStore(dir);
    expect(await store.readCredentials(SESSION)).toBeNull();
    expect(await store.hasCredentials(SESSION)).toBe(false);
    expect((await store.readKeys(SESSION, 'session', ['a'])).size).toBe(0);
    await store.writeKeys(SESSION, []);
    await store.writeKeys(SESSION, [{ category: 'session', id: 'a', value: null }]);
    await store.release(SESSION);
    expect(fs.readdirSync(dir)).toEqual([]);
    await store.close();
  });

  it('refuses path traversal ids without touching anything outside the auth folder', async () => {
    const authDir = path.join(dir, 'auth');
    const store = new SqliteAuthStateStore(authDir);
    for (const id of ['../outside', '..', 'a/../../b', `..${path.sep}x`, '/tmp/evil', '.']) {
      await expect(store.writeCredentials(id, 'creds')).rejects.toBeInstanceOf(ValidationError);
      await expect(store.wipe(id)).rejects.toBeInstanceOf(ValidationError);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
    await store.close();
  });

  it('reopens a released session and checkpoints its WAL on release', async () => {
    const store = new SqliteAuthStateStore(dir);
    await store.writeKeys(SESSION, keysOf(7));
    await store.release(SESSION);
    // A clean close folds the WAL back into the main file and removes it.
    expect(fs.existsSync(path.join(dir, SESSION, `${AUTH_STATE_FILE}-wal`))).toBe(false);
    expect((await store.readKeys(SESSION, 'session', ['a7'])).get('a7')).toBe('a-7');
    await store.close();
  });

  it('reports an unusable auth folder as UnavailableError', async () => {
    const blocker = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocker, 'x');
    const store = new SqliteAuthStateStore(blocker);
    await expect(store.writeCredentials(SESSION, 'creds')).rejects.toBeInstanceOf(UnavailableError);
    await store.close();
  });
});
