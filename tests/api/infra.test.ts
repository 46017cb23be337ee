/**
 * GET /api/infra/status and GET/PUT /api/infra/config on a gateway whose environment leaves the rate limit and the
 * delivery-failure retention to the run-time settings and pins LOG_LEVEL and AUDIT_RETENTION_DAYS: what is in
 * force, pinned and unknown settings refused (nothing saved), a save applied without restart (the rate limiter),
 * audited, and the routes admin-only for unscoped, unlimited keys.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RUNTIME_SETTING_NAMES } from '#shared/config/runtime-settings.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

const expectError = (res: { status: number; body: { code?: string } }, status: number, code: string) =>
  expect([res.status, res.body.code]).toEqual([status, code]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('infra status and run-time settings', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    // Blank is unset (the default applies): the rate limit is the settings' to change here.
    gw = await startTestGateway({ RATE_LIMIT_MAX: '', AUDIT_RETENTION_DAYS: '30' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('status: the deployment mode, stores up, queue, storage, engine', async () => {
    const res = await gw.request('GET', '/api/infra/status');
    expect(res.status).toBe(200);
    const aws = res.body.deploymentMode === 'aws';
    expect(res.body).toMatchObject({
      database: { type: aws ? 'dynamodb' : 'sqlite', main: 'up', data: 'up' },
      queue: { type: aws ? 'sqs' : 'embedded', webhooks: { enabled: expect.any(Boolean) } },
      storage: { type: aws ? 's3' : 'local' },
      engine: { type: 'test', activeSessions: 0 },
    });
    expect(res.body.version).toEqual(expect.any(String));
  });

  it('config: the values in force, the pinned ones, nothing saved yet, and no other variable', async () => {
    const res = await gw.request('GET', '/api/infra/config');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.settings).sort()).toEqual([...RUNTIME_SETTING_NAMES].sort());
    expect(res.body.settings).toMatchObject({ RATE_LIMIT_MAX: 100, AUDIT_RETENTION_DAYS: 30 });
    expect(res.body.envPinned).toEqual(expect.arrayContaining(['LOG_LEVEL', 'AUDIT_RETENTION_DAYS']));
    expect(res.body.envPinned).not.toContain('RATE_LIMIT_MAX');
    expect([res.body.overrides, res.body.updatedAt]).toEqual([{}, null]);
    expect(JSON.stringify(res.body)).not.toMatch(/TOKEN|KEY|SECRET/);
  });

  it('refuses a pinned, unknown or bad setting with 400 and saves nothing', async () => {
    expectError(
      await gw.request('PUT', '/api/infra/config', { body: { AUDIT_RETENTION_DAYS: 1, RATE_LIMIT_MAX: 50 } }),
      400,
      'SETTING_ENV_PINNED',
    );
    for (const body of [{ HOST_RPC_TOKEN: 'x' }, { PORT: 1 }, { RATE_LIMIT_MAX: 0 }, { LOG_LEVEL: 'loud' }]) {
      expectError(await gw.request('PUT', '/api/infra/config', { body }), 400, 'VALIDATION_FAILED');
    }
    const res = await gw.request('GET', '/api/infra/config');
    expect([res.body.overrides, res.body.updatedAt, res.body.settings.RATE_LIMIT_MAX]).toEqual([
      {},
      null,
      100,
    ]);
  });

  it('a save is in force at once (the rate limiter), audited, and left-out settings return to the env', async () => {
    const saved = await gw.request('PUT', '/api/infra/config', {
      body: { RATE_LIMIT_MAX: 3, RATE_LIMIT_WINDOW_MS: 1000, WEBHOOK_FAILURE_RETENTION_DAYS: 7 },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toMatchObject({ RATE_LIMIT_MAX: 3, WEBHOOK_FAILURE_RETENTION_DAYS: 7 });
    expect(Date.now() - Date.parse(saved.body.updatedAt)).toBeLessThan(60_000);
    await sleep(1100); // a fresh window
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await gw.request('GET', '/api/infra/config')).status);
    expect(codes).toEqual([200, 200, 200, 429]);
    await sleep(1100);
    const reset = await gw.request('PUT', '/api/infra/config', { body: {} });
    expect(reset.body.settings).toMatchObject({ RATE_LIMIT_MAX: 100, RATE_LIMIT_WINDOW_MS: 60_000 });
    expect(reset.body.overrides).toEqual({});
    const audit = await waitFor(async () => {
      const res = await gw.request('GET', '/api/audit?action=infra_config_saved');
      return res.body.total >= 2 ? res.body.data : null;
    });
    expect(audit.map((row: { metadata: { changed: string[] } }) => row.metadata.changed.sort())).toEqual([
      ['RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_MS', 'WEBHOOK_FAILURE_RETENTION_DAYS'],
      ['RATE_LIMIT_MAX', 'RATE_LIMIT_WINDOW_MS', 'WEBHOOK_FAILURE_RETENTION_DAYS'],
    ]);
  });

  it('admin keys only, unscoped and not limited to chats; no key 401', async () => {
    const session = await gw.createSession();
    const keys = {
      operator: (await gw.createKey({ name: 'infra operator', role: 'operator' })).key,
      scoped: (await gw.createKey({ name: 'infra scoped', role: 'admin', allowedSessions: [session.id] }))
        .key,
      chats: (await gw.createKey({ name: 'infra chats', role: 'admin', allowedChats: ['15550001111@c.us'] }))
        .key,
    };
    for (const [method, path, body] of [
      ['GET', '/api/infra/status', undefined],
      ['GET', '/api/infra/config', undefined],
      ['PUT', '/api/infra/config', {}],
    ] as const) {
      const as = (key: string | null) => gw.request(method, path, { key, ...(body ? { body } : {}) });
      expectError(await as(keys.operator), 403, 'FORBIDDEN_ROLE');
      expectError(await as(keys.scoped), 403, 'FORBIDDEN_SCOPED_KEY');
      expectError(await as(keys.chats), 403, 'FORBIDDEN_CHAT_RESTRICTED');
      expect((await as(null)).status).toBe(401);
    }
  });
});
