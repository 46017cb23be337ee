/**
 * GET /api/audit: `{data, total}` newest first, filters, paging limits, admin only; what the entries carry
 * (key, IP, method, path, request id); api_key_auth_failed for 401/403; the key lifecycle actions.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';

interface Entry {
  id: string;
  action: string;
  severity: string;
  apiKeyId: string | null;
  apiKeyName: string | null;
  sessionId: string | null;
  sessionName: string | null;
  ipAddress: string | null;
  method: string | null;
  path: string | null;
  statusCode: number | null;
  metadata: Record<string, unknown> | null;
  errorMessage: string | null;
  createdAt: string;
}
interface Page {
  data: Entry[];
  total: number;
}

describe('GET /api/audit', () => {
  let gw: TestGateway;
  let adminId: string;
  let operator: { key: string; id: string };
  let sessionA: { id: string; name: string };
  let sessionB: { id: string; name: string };

  const audit = async (query = '', key?: string) =>
    gw.request<Page>('GET', `/api/audit${query}`, key === undefined ? {} : { key });
  /** Waits until the (asynchronously flushed) log answers `query` with at least `count` entries. */
  const auditUntil = (query: string, count = 1) =>
    waitFor(async () => {
      const res = await audit(query);
      return res.status === 200 && res.body.data.length >= count ? res.body : null;
    });

  beforeAll(async () => {
    gw = await startTestGateway();
    adminId = (await gw.request('POST', '/api/auth/validate')).body.keyId;
    operator = await gw.createKey({ name: 'audit operator' });
    sessionA = (await gw.request('POST', '/api/sessions', { key: operator.key, body: { name: 'audit-a' } }))
      .body;
    sessionB = await gw.createSession('audit-b');
    // Enough refused requests to need more than one default page.
    for (let i = 0; i < 55; i++) await gw.request('GET', '/api/sessions', { key: `wg_${'0'.repeat(64)}` });
    await auditUntil('?action=api_key_auth_failed&limit=200', 55);
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers {data, total} newest first, 50 entries by default', async () => {
    const res = await audit();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'total']);
    expect(res.body.data).toHaveLength(50);
    expect(res.body.total).toBeGreaterThanOrEqual(58);
    const times = res.body.data.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('pages with limit (max 200) and offset over one consistent order', async () => {
    const all = (await audit('?limit=200')).body;
    expect(all.data).toHaveLength(Math.min(200, all.total));
    const first = (await audit('?limit=7')).body;
    const second = (await audit('?limit=7&offset=7')).body;
    expect(first.data.map((e) => e.id)).toEqual(all.data.slice(0, 7).map((e) => e.id));
    expect(second.data.map((e) => e.id)).toEqual(all.data.slice(7, 14).map((e) => e.id));
    expect(first.total).toBe(all.total);
    const beyond = (await audit(`?offset=${all.total + 10}`)).body;
    expect(beyond).toEqual({ data: [], total: all.total });
  });

  it('filters by action, severity, sessionId and apiKeyId', async () => {
    const created = await auditUntil('?action=session_created', 2);
    expect(created.data.every((e) => e.action === 'session_created')).toBe(true);
    expect(created.total).toBe(2);

    const warn = (await audit('?severity=warn&limit=200')).body;
    expect(warn.total).toBeGreaterThanOrEqual(55);
    expect(warn.data.every((e) => e.severity === 'warn')).toBe(true);
    expect((await audit('?severity=error')).body).toEqual({ data: [], total: 0 });

    const bySession = (await audit(`?sessionId=${sessionA.id}`)).body;
    expect(bySession.total).toBe(1);
    expect(bySession.data[0]).toMatchObject({
      action: 'session_created',
      sessionId: sessionA.id,
      sessionName: 'audit-a',
    });

    const byKey = (await audit(`?apiKeyId=${operator.id}`)).body;
    // The operator's key was used (api_key_used, sampled once per key per minute) to create the session.
    expect(byKey.data.map((e) => e.action).sort()).toEqual(['api_key_used', 'session_created']);
    for (const entry of byKey.data) {
      expect(entry).toMatchObject({ apiKeyId: operator.id, apiKeyName: 'audit operator' });
    }

    const combined = (await audit(`?action=session_created&apiKeyId=${adminId}&sessionId=${sessionB.id}`))
      .body;
    expect(combined.data.map((e) => e.sessionName)).toEqual(['audit-b']);
    expect((await audit(`?action=api_key_revoked&sessionId=${sessionA.id}`)).body.total).toBe(0);
  });

  it.each([
    ['an unknown action', '?action=session_exploded'],
    ['an unknown severity', '?severity=fatal'],
    ['a repeated action', '?action=session_created&action=api_key_created'],
    ['a repeated limit', '?limit=5&limit=6'],
    ['limit above 200', '?limit=201'],
    ['limit 0', '?limit=0'],
    ['a negative offset', '?offset=-1'],
    ['a non-numeric limit', '?limit=ten'],
    ['an unknown parameter', '?startDate=2020-01-01'],
  ])('400 for %s', async (_label, query) => {
    const res = await gw.request('GET', `/api/audit${query}`);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(res.body.details.length).toBeGreaterThan(0);
  });

  it('records successful use as api_key_used at most once per key per minute', async () => {
    const viewer = await gw.createKey({ name: 'audit viewer', role: 'viewer' });
    for (let i = 0; i < 5; i++) await gw.request('GET', '/api/sessions', { key: viewer.key });
    const used = await auditUntil(`?action=api_key_used&apiKeyId=${viewer.id}`, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await audit(`?action=api_key_used&apiKeyId=${viewer.id}`)).body.total).toBe(1);
    expect(used.data[0]).toMatchObject({ apiKeyName: 'audit viewer', method: 'GET', path: '/api/sessions' });
  });

  it('is admin only: 403 for operator and viewer keys, 401 without a key', async () => {
    expect((await audit('', operator.key)).status).toBe(403);
    const viewer = await gw.createKey({ name: 'audit viewer', role: 'viewer' });
    expect((await gw.request('GET', '/api/audit', { key: viewer.key })).body.code).toBe('FORBIDDEN_ROLE');
    expect((await gw.request('GET', '/api/audit', { key: null })).status).toBe(401);
  });

  it('a session-scoped admin key sees only its sessions’ entries', async () => {
    const scoped = await gw.createKey({
      name: 'scoped auditor',
      role: 'admin',
      allowedSessions: [sessionB.id],
    });
    const res = await audit('?limit=200', scoped.key);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.data[0]).toMatchObject({ action: 'session_created', sessionId: sessionB.id });
  });

  it('entries carry the key, client IP, method, path and the request id', async () => {
    const requestId = `audit-trace-${Date.now()}`;
    const res = await gw.request('POST', '/api/sessions', {
      key: operator.key,
      body: { name: 'audit-traced' },
      headers: { 'x-request-id': requestId, 'user-agent': 'audit-test/1.0' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    const page = await auditUntil(`?sessionId=${res.body.id}`);
    expect(page.data[0]).toMatchObject({
      action: 'session_created',
      severity: 'info',
      apiKeyId: operator.id,
      apiKeyName: 'audit operator',
      sessionId: res.body.id,
      sessionName: 'audit-traced',
      ipAddress: '127.0.0.1',
      method: 'POST',
      path: '/api/sessions',
      metadata: expect.objectContaining({ requestId }),
    });
  });

  it('api_key_auth_failed records 401s and 403s with status code and reason', async () => {
    const requestId = `denied-${Date.now()}`;
    await gw.request('GET', '/api/audit?limit=3', { key: null, headers: { 'x-request-id': requestId } });
    await gw.request('DELETE', `/api/auth/api-keys/${adminId}`, { key: operator.key });
    const missing = await waitFor(async () =>
      (await audit('?action=api_key_auth_failed&limit=200')).body.data.find(
        (e) => e.metadata?.requestId === requestId,
      ),
    );
    expect(missing).toMatchObject({
      severity: 'warn',
      apiKeyId: null,
      statusCode: 401,
      errorMessage: 'Missing API key',
      method: 'GET',
      path: '/api/audit',
      ipAddress: '127.0.0.1',
    });
    const forbidden = (await auditUntil(`?action=api_key_auth_failed&apiKeyId=${operator.id}`)).data[0];
    expect(forbidden).toMatchObject({
      severity: 'warn',
      apiKeyName: 'audit operator',
      statusCode: 403,
      errorMessage: 'Insufficient permissions. Required: admin',
      method: 'DELETE',
      path: `/api/auth/api-keys/${adminId}`,
    });
    const unknown = (await audit('?action=api_key_auth_failed&limit=200')).body.data.filter(
      (e) => e.errorMessage === 'Invalid API key',
    );
    expect(unknown.length).toBeGreaterThanOrEqual(55);
    expect(unknown.every((e) => e.statusCode === 401 && e.apiKeyId === null)).toBe(true);
  });

  it('records the key lifecycle: created, updated, revoked, deleted (never the plaintext)', async () => {
    const created = await gw.request('POST', '/api/auth/api-keys', { body: { name: 'lifecycle key' } });
    const id = created.body.id as string;
    await gw.request('PUT', `/api/auth/api-keys/${id}`, {
      body: { name: 'lifecycle key 2', role: 'viewer' },
    });
    await gw.request('POST', `/api/auth/api-keys/${id}/revoke`);
    await gw.request('DELETE', `/api/auth/api-keys/${id}`);
    const actions = ['api_key_created', 'api_key_updated', 'api_key_revoked', 'api_key_deleted'];
    const entries = await waitFor(async () => {
      const found = (await audit('?limit=200')).body.data.filter((e) => e.metadata?.targetKeyId === id);
      return found.length === actions.length ? found : null;
    });
    expect(entries.map((e) => e.action)).toEqual([...actions].reverse());
    for (const entry of entries) expect(entry).toMatchObject({ apiKeyId: adminId, ipAddress: '127.0.0.1' });
    const byAction = Object.fromEntries(entries.map((e) => [e.action, e]));
    expect(byAction.api_key_created).toMatchObject({ method: 'POST', path: '/api/auth/api-keys' });
    expect(byAction.api_key_created?.metadata).toMatchObject({
      targetKeyName: 'lifecycle key',
      role: 'operator',
    });
    expect(byAction.api_key_updated?.metadata?.fields).toEqual(expect.arrayContaining(['name', 'role']));
    expect(byAction.api_key_revoked).toMatchObject({
      method: 'POST',
      path: `/api/auth/api-keys/${id}/revoke`,
    });
    expect(byAction.api_key_deleted).toMatchObject({ method: 'DELETE', path: `/api/auth/api-keys/${id}` });
    const everything = await audit('?limit=200');
    expect(everything.text).not.toContain(created.body.apiKey);
  });

  it('refused key changes (404, 403, 400) are not recorded as lifecycle events', async () => {
    const before = (await audit('?action=api_key_revoked')).body.total;
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await gw.request('POST', `/api/auth/api-keys/${missing}/revoke`)).status).toBe(404);
    expect(
      (await gw.request('POST', `/api/auth/api-keys/${adminId}/revoke`, { key: operator.key })).status,
    ).toBe(403);
    expect((await gw.request('POST', '/api/auth/api-keys', { body: { name: 'x' } })).status).toBe(400);
    // A later, accepted change proves the refused ones had time to be flushed had they been recorded.
    const marker = await gw.createKey({ name: 'marker key' });
    await waitFor(async () =>
      (await audit('?action=api_key_created&limit=200')).body.data.some(
        (e) => e.metadata?.targetKeyId === marker.id,
      ),
    );
    expect((await audit('?action=api_key_revoked')).body.total).toBe(before);
    const created = (await audit('?action=api_key_created&limit=200')).body.data;
    expect(created.some((e) => e.metadata?.targetKeyName === 'x')).toBe(false);
  });
});
