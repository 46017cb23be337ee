/**
 * Boot against a data store that is not there yet (spec Limits: 10 attempts, 3000 ms apart): the stores are opened
 * and pinged up to DATA_STORE_CONNECT_ATTEMPTS times, one warning per failed attempt, and the boot goes on as soon as
 * an attempt succeeds; when none does, one fatal message names the variables to check. Against real stores: SQLite
 * files under a DATA_DIR that cannot be created, then can; DynamoDB at an endpoint where nothing listens.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { openBackends } from '#host/backends.js';
import { connectStores, DataStoreUnreachableError } from '#host/connect-stores.js';
import { loadEnv } from '#shared/config/env.js';
import { capturingLogger, type LogLine } from '#tests/helpers/capturing-logger.js';
import { closedPort } from '#tests/helpers/closed-port.js';

const tmp: string[] = [];
afterEach(() => {
  for (const dir of tmp.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A DATA_DIR that cannot be created: its parent is a file. */
function blockedDataDir(): { dataDir: string; blocker: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-connect-'));
  tmp.push(root);
  const blocker = path.join(root, 'blocker');
  fs.writeFileSync(blocker, '');
  return { dataDir: path.join(blocker, 'data'), blocker };
}

describe('connectStores', () => {
  it('defaults to 10 attempts 3000 ms apart, and reads both from the env', () => {
    const defaults = loadEnv({});
    expect([defaults.DATA_STORE_CONNECT_ATTEMPTS, defaults.DATA_STORE_CONNECT_INTERVAL_MS]).toEqual([
      10, 3000,
    ]);
    const set = loadEnv({ DATA_STORE_CONNECT_ATTEMPTS: '3', DATA_STORE_CONNECT_INTERVAL_MS: '50' });
    expect([set.DATA_STORE_CONNECT_ATTEMPTS, set.DATA_STORE_CONNECT_INTERVAL_MS]).toEqual([3, 50]);
  });

  it('SQLite: retries until DATA_DIR can be created, then goes on with stores that answer', async () => {
    const { dataDir, blocker } = blockedDataDir();
    const env = loadEnv({
      DATA_DIR: dataDir,
      DATA_STORE_CONNECT_ATTEMPTS: '5',
      DATA_STORE_CONNECT_INTERVAL_MS: '10',
    });
    const lines: LogLine[] = [];
    const waits: number[] = [];
    const backends = await connectStores(
      env,
      capturingLogger(lines),
      () => openBackends(env),
      async (ms) => {
        waits.push(ms);
        // The folder becomes creatable after the second failed attempt (a volume mounted late).
        if (waits.length === 2) fs.rmSync(blocker);
      },
    );
    try {
      await expect(backends.data.ping()).resolves.toBeUndefined();
      expect(waits).toEqual([10, 10]);
      const warnings = lines.filter((line) => line.level === 'warn');
      expect(warnings.map((line) => line.message)).toEqual([
        'data store connect attempt 1 of 5 failed; retrying in 10 ms',
        'data store connect attempt 2 of 5 failed; retrying in 10 ms',
      ]);
      expect(lines.some((line) => line.message === 'data store connected' && line.fields.attempt === 3)).toBe(
        true,
      );
    } finally {
      await backends.close();
    }
  });

  it('SQLite: gives up after the attempts with one message naming DATA_DIR', async () => {
    const { dataDir } = blockedDataDir();
    const env = loadEnv({
      DATA_DIR: dataDir,
      DATA_STORE_CONNECT_ATTEMPTS: '3',
      DATA_STORE_CONNECT_INTERVAL_MS: '1',
    });
    const lines: LogLine[] = [];
    const failure = await connectStores(env, capturingLogger(lines), () => openBackends(env)).catch((e) => e);
    expect(failure).toBeInstanceOf(DataStoreUnreachableError);
    expect(failure.message).toMatch(/^Waygate cannot reach its data store after 3 attempts 1 ms apart: /);
    expect(failure.message).toContain(`DATA_DIR=${dataDir} (it must be writable by this process)`);
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.fields.attempt)).toEqual([
      1, 2, 3,
    ]);
    expect(lines.at(-1)?.message).toBe('data store connect attempt 3 of 3 failed; giving up');
  });

  it('DynamoDB: gives up on an endpoint where nothing listens, naming DYNAMODB_ENDPOINT', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const env = loadEnv({
      DEPLOYMENT_MODE: 'aws',
      DYNAMODB_ENDPOINT: endpoint,
      SQS_ENDPOINT: endpoint,
      COMMAND_QUEUE_URL: `${endpoint}/queue/commands.fifo`,
      HOST_RPC_TOKEN: 'x'.repeat(32),
      S3_BUCKET: 'bucket',
      DATA_STORE_CONNECT_ATTEMPTS: '2',
      DATA_STORE_CONNECT_INTERVAL_MS: '1',
    });
    const lines: LogLine[] = [];
    // The SDK reads its credentials from the process env: any will do, the endpoint refuses the connection first.
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    const failure = await connectStores(env, capturingLogger(lines), () => openBackends(env))
      .catch((e) => e)
      .finally(() => {
        if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
        if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      });
    expect(failure).toBeInstanceOf(DataStoreUnreachableError);
    expect(failure.message).toContain(
      `DYNAMODB_ENDPOINT=${endpoint}, AWS_REGION=us-east-1, TABLE_PREFIX=waygate-`,
    );
    expect(failure.message).toMatch(/Last error: .*ECONNREFUSED/);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(2);
  }, 30_000);
});
