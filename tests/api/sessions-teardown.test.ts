/**
 * A logout whose network teardown hangs: 502 SESSION_LOGOUT_INCOMPLETE, then the teardown fence on the session
 * name refuses start and delete (409 SESSION_NAME_TEARDOWN_PENDING) with nothing destructive done, until the
 * teardown settles. ENGINE_TEARDOWN_TIMEOUT_MS is 300 ms in the test gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import {
  auditOf,
  expectError,
  getSession,
  linkedSession,
  recordEvents,
  type SessionBody,
  settledAudit,
  startTo,
  waitForSession,
} from './sessions-support.js';

describe('logout teardown pending', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    gw.network.releaseHeld();
    await gw.close();
  });

  /** A ready session whose logout hung: answers the session as it stood after the 502. */
  async function hungLogout(): Promise<SessionBody> {
    const session = await linkedSession(gw);
    gw.network.logoutBehaviour.set(session.id, 'hang');
    const startedAt = Date.now();
    const res = await gw.request('POST', `/api/sessions/${session.id}/logout`);
    expect(expectError(res, 502, 'SESSION_LOGOUT_INCOMPLETE').retryable).toBe(true);
    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000);
    gw.network.logoutBehaviour.delete(session.id);
    return getSession(gw, session.id);
  }

  it('502 SESSION_LOGOUT_INCOMPLETE (retryable): stopped locally, phone cleared, no session_logged_out audit', async () => {
    const after = await hungLogout();
    expect(after).toMatchObject({ status: 'disconnected', phone: null });
    expect(after.lastError).toEqual(expect.any(String));
    expect(gw.network.isConnected(after.id)).toBe(false);
    expect(await settledAudit(gw, 'session_logged_out', after.id)).toEqual([]);
  });

  it('start and delete answer 409 SESSION_NAME_TEARDOWN_PENDING and change nothing', async () => {
    const before = await hungLogout();
    const recorder = recordEvents(gw, before.id);
    const credentials = gw.network.credentialsOf(before.id);

    for (const [method, suffix] of [
      ['POST', '/start'],
      ['DELETE', ''],
      ['POST', '/start'],
    ] as const) {
      const res = await gw.request(method, `/api/sessions/${before.id}${suffix}`);
      const error = expectError(res, 409, 'SESSION_NAME_TEARDOWN_PENDING');
      expect(error.retryable).toBe(true);
      expect(error.message).toContain(before.name);
      // The row is still there and unchanged, and no second engine connection was opened.
      expect(await getSession(gw, before.id)).toEqual(before);
      expect(gw.network.isConnected(before.id)).toBe(false);
    }
    expect(gw.network.credentialsOf(before.id)).toEqual(credentials);
    expect(recorder.events).toEqual([]);
    recorder.stop();
    expect(await auditOf(gw, 'session_deleted', before.id)).toEqual([]);
    expect(await settledAudit(gw, 'session_started', before.id)).toHaveLength(1); // the original start only
  });

  it('the fence is per name: other sessions start and delete normally meanwhile', async () => {
    const fenced = await hungLogout();
    const other = await linkedSession(gw);
    expect((await gw.request('POST', `/api/sessions/${other.id}/stop`)).status).toBe(200);
    await startTo(gw, other.id, 'ready');
    expect((await gw.request('DELETE', `/api/sessions/${other.id}`)).status).toBe(204);
    expectError(
      await gw.request('POST', `/api/sessions/${fenced.id}/start`),
      409,
      'SESSION_NAME_TEARDOWN_PENDING',
    );
  });

  it('once the teardown settles, credentials are wiped and start works again (a new QR is needed)', async () => {
    const session = await hungLogout();
    gw.network.releaseHeld();
    // The late teardown wipes the credentials and lifts the fence.
    await waitForSession(
      gw,
      session.id,
      'disconnected',
      () => gw.network.credentialsOf(session.id) === undefined,
    );
    // The fence is lifted right after the wipe; poll past the 409s.
    const started = await waitFor(async () => {
      const res = await gw.request('POST', `/api/sessions/${session.id}/start`);
      return res.status === 409 ? null : res;
    });
    expect(started.status).toBe(200);
    const qrReady = await waitForSession(gw, session.id, 'qr_ready');
    expect(qrReady.phone).toBeNull();

    const again = await linkedSession(gw);
    gw.network.logoutBehaviour.set(again.id, 'hang');
    expectError(
      await gw.request('POST', `/api/sessions/${again.id}/logout`),
      502,
      'SESSION_LOGOUT_INCOMPLETE',
    );
    gw.network.releaseHeld();
    await waitForSession(
      gw,
      again.id,
      'disconnected',
      () => gw.network.credentialsOf(again.id) === undefined,
    );
    const deleted = await waitFor(async () => {
      const res = await gw.request('DELETE', `/api/sessions/${again.id}`);
      return res.status === 409 ? null : res;
    });
    expect(deleted.status).toBe(204);
    expectError(await gw.request('GET', `/api/sessions/${again.id}`), 404, 'NOT_FOUND');
  });
});
