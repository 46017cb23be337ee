/**
 * Security-relevant audit entries (session lifecycle, key lifecycle, auth failures) are stored before the response
 * that reports the action: the very next request reads them, with no wait and no retry loop.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

interface Entry {
  action: string;
  sessionId: string | null;
  metadata: Record<string, unknown> | null;
  statusCode: number | null;
}

describe('audit entries are readable by the next request', () => {
  let gw: TestGateway;

  /** One read of the log, at once: the entries matching `query`. */
  const auditNow = async (query: string): Promise<Entry[]> => {
    const res = await gw.request<{ data: Entry[] }>('GET', `/api/audit${query}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('shows session_created, session_started and session_deleted right after each answer', async () => {
    const session = await gw.createSession();
    expect((await auditNow(`?action=session_created&sessionId=${session.id}`)).length).toBe(1);
    expect((await gw.request('POST', `/api/sessions/${session.id}/start`)).status).toBe(200);
    expect((await auditNow(`?action=session_started&sessionId=${session.id}`)).length).toBe(1);
    expect((await gw.request('DELETE', `/api/sessions/${session.id}`)).status).toBe(204);
    expect((await auditNow(`?action=session_deleted&sessionId=${session.id}`)).length).toBe(1);
  });

  it('shows api_key_created and api_key_revoked right after each answer', async () => {
    const key = await gw.createKey({ name: 'read-after-write key' });
    const mine = (entries: Entry[]) => entries.filter((e) => e.metadata?.targetKeyId === key.id);
    expect(mine(await auditNow('?action=api_key_created&limit=200'))).toHaveLength(1);
    expect((await gw.request('POST', `/api/auth/api-keys/${key.id}/revoke`)).status).toBe(200);
    expect(mine(await auditNow('?action=api_key_revoked&limit=200'))).toHaveLength(1);
  });

  it('shows api_key_auth_failed right after each refused request', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const requestId = `refused-${attempt}-${Date.now()}`;
      const refused = await gw.request('GET', '/api/sessions', {
        key: `wg_${'1'.repeat(64)}`,
        headers: { 'x-request-id': requestId },
      });
      expect(refused.status).toBe(401);
      const failures = await auditNow('?action=api_key_auth_failed&limit=200');
      expect(failures.filter((e) => e.metadata?.requestId === requestId)).toEqual([
        expect.objectContaining({ statusCode: 401 }),
      ]);
    }
  });
});
