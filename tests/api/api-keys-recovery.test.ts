/**
 * The way back in: `npm run keys:recover` (host/recover-admin-key.ts), run for real as a child process with the
 * gateway's own variables while the gateway runs, after its only admin key has expired. The key it prints (stdout
 * holds nothing else) works on admin routes at once, the audit log shows who minted it, and the store holds only
 * its hash. Against the aws target the same command writes to the DynamoDB main table.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { hashApiKey } from '#shared/security/secrets.js';
import { apiTarget, startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY_LINE = /^wg_[0-9a-f]{64}\n$/;
/** Each run starts a node process with tsx (about a second, several under load). */
const RUNS_TIMEOUT_MS = 120_000;

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the recovery command's source (what `npm run keys:recover` bundles) with the gateway's variables. */
async function recover(gw: TestGateway, args: string[] = []): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'host/recover-admin-key.ts', ...args],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...gw.env }, timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Everything the main store holds, as text: the SQLite file and its WAL, or every item of the main table. */
async function mainStoreText(gw: TestGateway): Promise<string> {
  if (apiTarget === 'embedded') {
    const file = path.join(gw.dataDir, 'main.sqlite');
    return [file, `${file}-wal`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('\n');
  }
  const client = new DynamoDBClient({ region: 'us-east-1', endpoint: gw.env.DYNAMODB_ENDPOINT });
  try {
    const items: unknown[] = [];
    let start: Record<string, never> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({ TableName: `${gw.env.TABLE_PREFIX}main`, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey as Record<string, never> | undefined;
    } while (start);
    return JSON.stringify(items);
  } finally {
    client.destroy();
  }
}

describe('keys:recover', () => {
  let gw: TestGateway;
  let bootstrapId: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    bootstrapId = (await gw.request<{ id: string }[]>('GET', '/api/auth/api-keys')).body[0]!.id;
  });
  afterAll(async () => {
    await gw.close();
  });

  it(
    'refuses a bad --name or an unknown argument before touching the store, printing nothing on stdout',
    async () => {
      const before = (await gw.request<unknown[]>('GET', '/api/auth/api-keys')).body.length;
      for (const args of [['--name', 'bad\nname'], ['--name', 'ab'], ['positional'], ['--role', 'viewer']]) {
        const result = await recover(gw, args);
        expect([args, result.code, result.stdout]).toEqual([args, 2, '']);
        expect(result.stderr).toContain('usage: npm run keys:recover');
      }
      expect((await gw.request<unknown[]>('GET', '/api/auth/api-keys')).body).toHaveLength(before);
    },
    RUNS_TIMEOUT_MS,
  );

  it(
    'mints a working admin key after the only admin key expired, audits it and stores only its hash',
    async () => {
      // A real lockout through the API: a second admin lets the bootstrap key expire soon, then is revoked.
      const second = await gw.createKey({ name: 'temporary admin', role: 'admin' });
      const expiresAt = new Date(Date.now() + 4000).toISOString();
      const expiring = await gw.request('PUT', `/api/auth/api-keys/${bootstrapId}`, {
        key: second.key,
        body: { expiresAt },
      });
      expect(expiring.status).toBe(200);
      expect((await gw.request('POST', `/api/auth/api-keys/${second.id}/revoke`)).status).toBe(200);
      await waitFor(async () => (await gw.request('GET', '/api/auth/api-keys')).status === 401, 15_000, 100);

      const result = await recover(gw, ['--name', 'ops laptop recovery']);
      expect([result.code, result.stderr]).toEqual([0, expect.stringContaining('ops laptop recovery')]);
      expect(result.stdout).toMatch(KEY_LINE);
      const key = result.stdout.trim();
      expect(result.stderr).not.toContain(key);

      // It works on admin routes at once (the gateway caches no unknown hash) and is unscoped and unrestricted.
      const listed = await gw.request<Record<string, unknown>[]>('GET', '/api/auth/api-keys', { key });
      expect(listed.status).toBe(200);
      const minted = listed.body.find((k) => k.keyPrefix === key.slice(0, 12));
      expect(minted).toMatchObject({
        name: 'ops laptop recovery',
        role: 'admin',
        isActive: true,
        allowedSessions: null,
        allowedIps: null,
        expiresAt: null,
      });
      expect(listed.text).not.toContain(key);

      // The entry was stored before the command exited: no waiting here.
      const audit = await gw.request('GET', '/api/audit?action=api_key_created&limit=200', { key });
      const entry = audit.body.data.find(
        (e: { metadata: { targetKeyId?: string } }) => e.metadata?.targetKeyId === minted?.id,
      );
      expect(entry).toMatchObject({
        action: 'api_key_created',
        severity: 'warn',
        apiKeyId: null,
        metadata: {
          targetKeyName: 'ops laptop recovery',
          role: 'admin',
          mintedBy: 'local recovery command',
          host: expect.any(String),
        },
      });

      const stored = await mainStoreText(gw);
      expect(stored).toContain(hashApiKey(key));
      expect(stored).not.toContain(key);
      expect(stored).not.toContain(key.slice(12));

      // With it the operator repairs the rest: the expired key can go, the new one is now the last admin.
      expect((await gw.request('DELETE', `/api/auth/api-keys/${bootstrapId}`, { key })).status).toBe(204);
      const last = await gw.request('POST', `/api/auth/api-keys/${minted?.id}/revoke`, { key });
      expect([last.status, last.body.code]).toEqual([409, 'LAST_ADMIN_KEY']);
    },
    RUNS_TIMEOUT_MS,
  );

  it(
    'names the key recovery-<date> by default, and each run mints another key',
    async () => {
      const first = await recover(gw);
      const second = await recover(gw);
      expect([first.code, second.code]).toEqual([0, 0]);
      expect(first.stdout).toMatch(KEY_LINE);
      expect(second.stdout).toMatch(KEY_LINE);
      expect(second.stdout).not.toBe(first.stdout);
      const key = second.stdout.trim();
      const keys = (
        await gw.request<{ name: string; keyPrefix: string }[]>('GET', '/api/auth/api-keys', { key })
      ).body;
      const today = new Date().toISOString().slice(0, 10);
      for (const minted of [first.stdout, second.stdout]) {
        const prefix = minted.slice(0, 12);
        expect(keys.find((k) => k.keyPrefix === prefix)?.name).toMatch(/^recovery-\d{4}-\d{2}-\d{2}$/);
      }
      expect(keys.some((k) => k.name === `recovery-${today}`)).toBe(true);
    },
    RUNS_TIMEOUT_MS,
  );
});
