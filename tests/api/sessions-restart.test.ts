/**
 * A gateway restart (same data dir and network, as a process restart would keep them): sessions that were running
 * come back with their stored credentials; sessions that were not running stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import {
  createSession,
  decodeQrDataUrl,
  getSession,
  linkedSession,
  readySession,
  type SessionBody,
  startTo,
  waitForAudit,
  waitForSession,
} from './sessions-support.js';

describe('gateway restart', () => {
  let gw: TestGateway;
  let ready: SessionBody;
  let pending: SessionBody;
  let stopped: SessionBody;
  let idle: SessionBody;
  let failed: SessionBody;

  beforeAll(async () => {
    gw = await startTestGateway();
    ready = await readySession(gw, {}, { phone: '15550004444', pushName: 'Dana' });
    pending = await createSession(gw);
    await startTo(gw, pending.id, 'qr_ready');
    stopped = await linkedSession(gw, {}, { phone: '15550005555', pushName: 'Eve' });
    expect((await gw.request('POST', `/api/sessions/${stopped.id}/stop`)).status).toBe(200);
    stopped = await getSession(gw, stopped.id);
    idle = await createSession(gw);
    failed = await linkedSession(gw, { config: { maxReconnectAttempts: 0 } });
    gw.network.dropConnection(failed.id);
    failed = await waitForSession(gw, failed.id, 'failed');
    await waitForAudit(gw, 'session_stopped', stopped.id);

    gw = await gw.restart();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('a ready session comes back ready with its identity, without a new QR', async () => {
    const back = await waitForSession(gw, ready.id, 'ready');
    expect(back).toMatchObject({ phone: '15550004444', pushName: 'Dana', lastError: null });
    expect(gw.network.isConnected(ready.id)).toBe(true);
    const qr = await gw.request('GET', `/api/sessions/${ready.id}/qr`);
    expect(qr.status).toBe(400);
    expect(qr.body.code).toBe('ALREADY_AUTHENTICATED');

    // No QR was generated while it came back: after a logout the next QR is only the second one ever shown.
    expect((await gw.request('POST', `/api/sessions/${ready.id}/logout`)).status).toBe(200);
    await startTo(gw, ready.id, 'qr_ready');
    const next = await gw.request('GET', `/api/sessions/${ready.id}/qr`);
    expect(decodeQrDataUrl(next.body.qrCode)).toBe(`waygate-test-qr:${ready.id}:2`);
  });

  it('a session that was waiting for its QR scan shows a fresh QR and can still be linked', async () => {
    await waitForSession(gw, pending.id, 'qr_ready');
    const qr = await gw.request('GET', `/api/sessions/${pending.id}/qr`);
    expect(qr.status).toBe(200);
    expect(decodeQrDataUrl(qr.body.qrCode)).toBe(`waygate-test-qr:${pending.id}:2`);
    gw.network.scanQr(pending.id, { phone: '15550006666' });
    expect(await waitForSession(gw, pending.id, 'ready')).toMatchObject({ phone: '15550006666' });
  });

  it('stopped, created and failed sessions stay down and unchanged', async () => {
    // The boot resumes sessions before the gateway answers, so these rows are final already.
    expect(await getSession(gw, stopped.id)).toEqual(stopped);
    expect(await getSession(gw, idle.id)).toEqual(idle);
    expect(await getSession(gw, failed.id)).toEqual(failed);
    for (const session of [stopped, idle, failed]) expect(gw.network.isConnected(session.id)).toBe(false);

    // The stopped one still has its credentials: an operator start links it without a QR.
    expect(await startTo(gw, stopped.id, 'ready')).toMatchObject({ phone: '15550005555', pushName: 'Eve' });
  });

  it('the API keys and the audit trail survive the restart', async () => {
    const res = await gw.request('GET', `/api/audit?action=session_stopped&sessionId=${stopped.id}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
  });
});
