/** start, GET qr, stop, logout and force-kill over a real gateway, with the TestNetwork acting as the phone. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  auditOf,
  createSession,
  decodeQrDataUrl,
  expectError,
  expectSessionShape,
  expectValidation,
  getSession,
  linkedSession,
  readySession,
  recordEvents,
  type SessionBody,
  settledAudit,
  startTo,
  waitForAudit,
  waitForSession,
} from './sessions-support.js';

describe('session lifecycle', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const post = (id: string, action: string) =>
    gw.request<SessionBody>('POST', `/api/sessions/${id}/${action}`);
  const qrOf = (id: string) => gw.request('GET', `/api/sessions/${id}/qr`);

  describe('start → qr_ready → scan → ready', () => {
    it('links a new device: QR PNG of the engine payload, then phone and pushName', async () => {
      const session = await createSession(gw);
      const recorder = recordEvents(gw, session.id);
      expectError(await qrOf(session.id), 400, 'QR_NOT_AVAILABLE');

      const started = await post(session.id, 'start');
      expect(started.status).toBe(200);
      expectSessionShape(started.body);
      expect(started.body).toMatchObject({ id: session.id, status: 'initializing', lastError: null });
      await waitForAudit(gw, 'session_started', session.id);

      await waitForSession(gw, session.id, 'qr_ready');
      const qr = await qrOf(session.id);
      expect(qr.status).toBe(200);
      expect(Object.keys(qr.body).sort()).toEqual(['qrCode', 'status']);
      expect(qr.body.status).toBe('qr_ready');
      expect(decodeQrDataUrl(qr.body.qrCode)).toBe(`waygate-test-qr:${session.id}:1`);
      await waitForAudit(gw, 'session_qr_generated', session.id);

      gw.network.scanQr(session.id, { phone: '15550002222', pushName: 'Bob' });
      const ready = await waitForSession(gw, session.id, 'ready');
      expect(ready).toMatchObject({ phone: '15550002222', pushName: 'Bob', lastError: null });
      expect(ready.connectedAt).not.toBeNull();
      expect(ready.lastActive).not.toBeNull();
      expectError(await qrOf(session.id), 400, 'ALREADY_AUTHENTICATED');

      expect(await recorder.reached(['ready'])).toEqual([
        'initializing',
        'qr_ready',
        'authenticating',
        'ready',
      ]);
      expect(recorder.names()).toContain('session.qr');
      const authenticated = recorder.events.find((e) => e.event === 'session.authenticated');
      expect(authenticated?.data).toEqual({ sessionId: session.id, phone: '15550002222', pushName: 'Bob' });
      recorder.stop();
    });

    it('400 SESSION_ALREADY_STARTED while initializing, qr_ready or ready; the row is untouched', async () => {
      const session = await linkedSession(gw);
      expectError(await post(session.id, 'start'), 400, 'SESSION_ALREADY_STARTED');
      expect(await getSession(gw, session.id)).toEqual(session);

      const pending = await createSession(gw);
      expect((await post(pending.id, 'start')).status).toBe(200);
      expectError(await post(pending.id, 'start'), 400, 'SESSION_ALREADY_STARTED');
      const qrReady = await waitForSession(gw, pending.id, 'qr_ready');
      expectError(await post(pending.id, 'start'), 400, 'SESSION_ALREADY_STARTED');
      expect(await getSession(gw, pending.id)).toEqual(qrReady);
      expect(await settledAudit(gw, 'session_started', pending.id)).toHaveLength(1);
    });

    it('two concurrent starts: exactly one 200 and one 400, one audit and one engine', async () => {
      const session = await createSession(gw);
      const results = await Promise.all([post(session.id, 'start'), post(session.id, 'start')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      expectError(results.find((r) => r.status === 400)!, 400, 'SESSION_ALREADY_STARTED');
      await waitForSession(gw, session.id, 'qr_ready');
      const qr = await qrOf(session.id);
      expect(decodeQrDataUrl(qr.body.qrCode)).toBe(`waygate-test-qr:${session.id}:1`);
      expect(await settledAudit(gw, 'session_started', session.id)).toHaveLength(1);
    });

    it('POST start takes no body: an unknown field is 400 and nothing starts', async () => {
      const session = await createSession(gw);
      const res = await gw.request('POST', `/api/sessions/${session.id}/start`, { body: { force: true } });
      expectValidation(res, 'body');
      expect((await getSession(gw, session.id)).status).toBe('created');
    });
  });

  describe('stop', () => {
    it('keeps the credentials: start again goes straight to ready without a QR', async () => {
      const session = await linkedSession(gw);
      const stopped = await post(session.id, 'stop');
      expect(stopped.status).toBe(200);
      expectSessionShape(stopped.body);
      expect(stopped.body).toMatchObject({ status: 'disconnected', phone: session.phone });
      expect(gw.network.isConnected(session.id)).toBe(false);
      expect(gw.network.credentialsOf(session.id)).toEqual({ phone: '15550001111', pushName: 'Alice' });
      await waitForAudit(gw, 'session_stopped', session.id);
      expectError(await qrOf(session.id), 400, 'QR_NOT_AVAILABLE');

      const recorder = recordEvents(gw, session.id);
      const ready = await startTo(gw, session.id, 'ready');
      expect(ready).toMatchObject({ phone: '15550001111', pushName: 'Alice' });
      expect(recorder.statuses()).not.toContain('qr_ready');
      expect(recorder.names()).not.toContain('session.qr');
      recorder.stop();
    });

    it('stops a session still waiting for its QR scan; the QR is gone', async () => {
      const session = await createSession(gw);
      await startTo(gw, session.id, 'qr_ready');
      const stopped = await post(session.id, 'stop');
      expect(stopped.status).toBe(200);
      expect(stopped.body.status).toBe('disconnected');
      expectError(await qrOf(session.id), 400, 'QR_NOT_AVAILABLE');
      expect(gw.network.isConnected(session.id)).toBe(false);
    });

    it('a hanging engine stop is escalated after the teardown deadline: 200, engine gone, credentials kept', async () => {
      const session = await linkedSession(gw);
      gw.network.stopBehaviour.set(session.id, 'hang');
      const startedAt = Date.now();
      const stopped = await post(session.id, 'stop');
      expect(stopped.status).toBe(200);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250);
      expect(stopped.body.status).toBe('disconnected');
      expect(gw.network.isConnected(session.id)).toBe(false);
      expect(gw.network.credentialsOf(session.id)).toBeDefined();
      gw.network.stopBehaviour.delete(session.id);
    });
  });

  describe('logout', () => {
    it('unlinks: phone cleared, disconnected, credentials wiped, audited; a new start shows a new QR', async () => {
      const session = await readySession(gw);
      const res = await post(session.id, 'logout');
      expect(res.status).toBe(200);
      expectSessionShape(res.body);
      expect(res.body).toMatchObject({
        id: session.id,
        status: 'disconnected',
        phone: null,
        lastError: null,
      });
      expect(await getSession(gw, session.id)).toMatchObject({ status: 'disconnected', phone: null });
      expect(gw.network.credentialsOf(session.id)).toBeUndefined();
      expect(gw.network.isConnected(session.id)).toBe(false);
      const [audit] = await waitForAudit(gw, 'session_logged_out', session.id);
      expect(audit).toMatchObject({ severity: 'info', sessionName: session.name });

      await startTo(gw, session.id, 'qr_ready');
      const qr = await qrOf(session.id);
      expect(qr.status).toBe(200);
      expect(decodeQrDataUrl(qr.body.qrCode)).toBe(`waygate-test-qr:${session.id}:2`);
    });

    it('400 SESSION_NOT_STARTED for a created or stopped session; the row and credentials are untouched', async () => {
      const fresh = await createSession(gw);
      expectError(await post(fresh.id, 'logout'), 400, 'SESSION_NOT_STARTED');
      expect(await getSession(gw, fresh.id)).toEqual(fresh);

      const linked = await linkedSession(gw);
      expect((await post(linked.id, 'stop')).status).toBe(200);
      const stopped = await getSession(gw, linked.id);
      expectError(await post(linked.id, 'logout'), 400, 'SESSION_NOT_STARTED');
      expect(await getSession(gw, linked.id)).toEqual(stopped);
      expect(stopped.phone).toBe('15550001111');
      expect(gw.network.credentialsOf(linked.id)).toBeDefined();
      expect(await settledAudit(gw, 'session_logged_out', linked.id)).toEqual([]);
    });

    it('a logout refused by the network is 502 SESSION_LOGOUT_INCOMPLETE: stopped locally, phone cleared, no success audit', async () => {
      const session = await linkedSession(gw);
      gw.network.logoutBehaviour.set(session.id, 'fail');
      const error = expectError(await post(session.id, 'logout'), 502, 'SESSION_LOGOUT_INCOMPLETE');
      expect(error.retryable).toBe(true);
      expect(await getSession(gw, session.id)).toMatchObject({ status: 'disconnected', phone: null });
      expect(gw.network.isConnected(session.id)).toBe(false);
      expect(await settledAudit(gw, 'session_logged_out', session.id)).toEqual([]);
      gw.network.logoutBehaviour.delete(session.id);

      // The refusal settled at once, so nothing is fenced: start again and link anew.
      await startTo(gw, session.id, 'qr_ready');
    });
  });

  describe('force-kill', () => {
    it('kills a running engine: disconnected, audited session_force_killed', async () => {
      const session = await linkedSession(gw);
      const res = await post(session.id, 'force-kill');
      expect(res.status).toBe(200);
      expectSessionShape(res.body);
      expect(res.body.status).toBe('disconnected');
      expect(gw.network.isConnected(session.id)).toBe(false);
      const [audit] = await waitForAudit(gw, 'session_force_killed', session.id);
      expect(audit).toMatchObject({ sessionName: session.name });

      const pending = await createSession(gw);
      await startTo(gw, pending.id, 'qr_ready');
      const killed = await post(pending.id, 'force-kill');
      expect(killed.status).toBe(200);
      expect(killed.body.status).toBe('disconnected');
      expectError(await qrOf(pending.id), 400, 'QR_NOT_AVAILABLE');
    });

    it('400 SESSION_NOT_STARTED when no engine runs; the row is untouched and nothing is audited', async () => {
      const fresh = await createSession(gw);
      expectError(await post(fresh.id, 'force-kill'), 400, 'SESSION_NOT_STARTED');
      expect(await getSession(gw, fresh.id)).toEqual(fresh);

      const linked = await linkedSession(gw);
      expect((await post(linked.id, 'stop')).status).toBe(200);
      const stopped = await getSession(gw, linked.id);
      expectError(await post(linked.id, 'force-kill'), 400, 'SESSION_NOT_STARTED');
      expect(await getSession(gw, linked.id)).toEqual(stopped);
      expect(await auditOf(gw, 'session_force_killed', fresh.id)).toEqual([]);
      expect(await settledAudit(gw, 'session_force_killed', linked.id)).toEqual([]);
    });
  });
});
