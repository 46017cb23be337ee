/**
 * The path `npm start` takes, on a copy of the sources built by the real scripts/build.mjs: a second build with
 * nothing changed writes nothing; a changed source is built again. The built gateway then starts (ENGINE=test, a
 * fresh data folder) without loading what a start of the embedded mode never uses: the AWS SDK, qrcode, Baileys,
 * undici (Node's lazy WebSocket getters of node:http), nor the packages the bundle carries (zod, pino, prom-client)
 * from node_modules; a failing start's stack trace names the TypeScript sources (source maps read on demand); and a
 * data folder it cannot use is retried as configured, then named in one message.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** What build.mjs reads: the sources and the files that steer the build. */
const COPIED = ['embedded', 'host', 'shared', 'functions', 'scripts', 'package.json', 'tsconfig.json'];

/** Notes every module the process resolves and, at exit, those with Node's builtins it loaded internally. */
const RECORDER = `
import fs from 'node:fs';
import { registerHooks } from 'node:module';
const resolved = new Set();
registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); resolved.add(result.url); return result; } });
process.on('exit', () => fs.writeFileSync(process.env.WAYGATE_TEST_LOADED, JSON.stringify({ resolved: [...resolved], internal: process.moduleLoadList })));
`;

/** This process's environment without what the test runner adds for itself (jest's flags, the simulator's CA). */
const { NODE_OPTIONS: _options, NODE_EXTRA_CA_CERTS: _certs, ...ENV } = process.env;

describe('the start path', () => {
  let copy: string;
  const build = (): SpawnSyncReturns<string> =>
    spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy, encoding: 'utf8', env: ENV });
  /** Every output of the last build with its mtime. */
  const outputs = () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(copy, 'dist/.build-manifest.json'), 'utf8')) as {
      outputs: Record<string, unknown>;
    };
    return Object.keys(manifest.outputs).map(
      (file) => `${file} ${fs.statSync(path.join(copy, file)).mtimeMs}`,
    );
  };

  beforeAll(() => {
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-start-path-'));
    for (const entry of COPIED)
      fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    const first = build();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
  }, 120_000);
  afterAll(() => {
    fs.rmSync(copy, { recursive: true, force: true });
  });

  it('builds nothing when nothing changed, and again once a source changed', () => {
    const before = outputs();
    const again = build();
    expect(again.status).toBe(0);
    expect(outputs()).toEqual(before);

    fs.appendFileSync(path.join(copy, 'shared/qr/render-qr.ts'), '\nexport const startPathTest = 1;\n');
    const rebuilt = build();
    expect(rebuilt.status).toBe(0);
    expect(outputs()).not.toEqual(before);
    expect(
      fs.readFileSync(path.join(copy, 'dist/shared/adapters/sqlite/sqlite-stores.js'), 'utf8'),
    ).toBeTruthy();
  }, 120_000);

  it('starts the embedded gateway without loading the AWS SDK, qrcode, Baileys, undici or bundled packages', async () => {
    const recorder = path.join(copy, 'record-loaded.mjs');
    fs.writeFileSync(recorder, RECORDER);
    const loadedFile = path.join(copy, 'loaded.json');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-start-path-data-'));
    const child = spawn(process.execPath, ['--import', recorder, 'dist/embedded/main.js'], {
      cwd: copy,
      env: {
        ...ENV,
        PORT: '0',
        BIND_HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ENGINE: 'test',
        LOG_LEVEL: 'warn',
        WAYGATE_TEST_LOADED: loadedFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<string>((resolve) =>
      child.once('exit', (code, signal) => resolve(`code ${code}, signal ${signal}`)),
    );
    let ended = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (output.includes('Waygate is listening on')) resolve();
          else if (child.exitCode !== null) reject(new Error(`the gateway stopped:\n${output}`));
          else return;
          clearInterval(check);
        }, 20);
      });
    } finally {
      child.kill('SIGTERM');
      ended = await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // The recorder writes the file as the process exits; a process that ended otherwise says how, with its output.
    if (!fs.existsSync(loadedFile))
      throw new Error(`the gateway ended (${ended}) without an exit:\n${output}`);
    const loaded = JSON.parse(fs.readFileSync(loadedFile, 'utf8')) as {
      resolved: string[];
      internal: string[];
    };
    const packages = new Set(
      loaded.resolved.map((url) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]).filter(Boolean),
    );
    for (const unused of [
      '@aws-sdk/client-dynamodb',
      '@aws-sdk/client-sqs',
      '@aws-sdk/lib-dynamodb',
      'qrcode',
      // The agent-tool endpoint is off by default, and loaded only on its first request when on.
      '@modelcontextprotocol/sdk',
    ]) {
      expect(packages).not.toContain(unused);
    }
    expect([...packages].filter((name) => name?.startsWith('@whiskeysockets/'))).toEqual([]);
    for (const bundled of ['zod', 'pino', 'prom-client', '@opentelemetry/api', '@middy/core']) {
      expect(packages).not.toContain(bundled);
    }
    expect(packages).toContain('better-sqlite3');
    expect(loaded.internal.filter((name) => name.includes('undici'))).toEqual([]);
  }, 60_000);

  it("maps a failing start's stack trace to the TypeScript sources", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-start-fail-'));
    // MULTI_NODE without HOST_RPC_TOKEN: the host refuses to start with a plain error, thrown from its source.
    const failed = spawnSync(process.execPath, ['dist/embedded/main.js'], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...ENV, PORT: '0', DATA_DIR: dataDir, ENGINE: 'test', MULTI_NODE: 'true' },
      timeout: 30_000,
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(failed.status).not.toBe(0);
    const frames = failed.stderr.split('\n').filter((line) => /^\s+at /.test(line));
    expect(frames.some((frame) => frame.includes(path.join(copy, 'host/host-process.ts:')))).toBe(true);
    expect(frames.filter((frame) => frame.includes('/dist/'))).toEqual([]);
  }, 60_000);

  it('retries an unusable DATA_DIR as configured, then exits 1 with one message naming it', () => {
    const failed = spawnSync(process.execPath, ['dist/embedded/main.js'], {
      cwd: copy,
      encoding: 'utf8',
      env: {
        ...ENV,
        PORT: '0',
        DATA_DIR: '/dev/null/not-a-folder',
        ENGINE: 'test',
        DATA_STORE_CONNECT_ATTEMPTS: '3',
        DATA_STORE_CONNECT_INTERVAL_MS: '20',
      },
      timeout: 30_000,
    });
    expect(failed.status).toBe(1);
    const attempts = failed.stdout.split('\n').filter((line) => line.includes('data store connect attempt'));
    expect(attempts).toHaveLength(3);
    expect(attempts[2]).toContain('attempt 3 of 3 failed; giving up');
    // One message, no stack trace: it names what to fix.
    expect(failed.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^Waygate cannot reach its data store after 3 attempts 20 ms apart: the SQLite stores could not be opened: check DATA_DIR=\/dev\/null\/not-a-folder \(it must be writable by this process\)/,
      ),
    ]);
  }, 60_000);
});
