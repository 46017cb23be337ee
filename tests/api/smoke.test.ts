import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitForStatus } from '#tests/helpers/test-gateway.js';

describe('embedded gateway smoke', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it('links a session through the test engine: start → qr_ready → scan → ready', async () => {
    const session = await gw.createSession();
    const started = await gw.request('POST', `/api/sessions/${session.id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('initializing');
    await waitForStatus(gw, session.id, 'qr_ready');
    const qr = await gw.request('GET', `/api/sessions/${session.id}/qr`);
    expect(qr.status).toBe(200);
    expect(qr.body.qrCode).toMatch(/^data:image\/png;base64,/);
    gw.network.scanQr(session.id, { phone: '15550001111', pushName: 'Alice' });
    const ready = await waitForStatus(gw, session.id, 'ready');
    expect(ready).toMatchObject({ phone: '15550001111', pushName: 'Alice' });
  });

  it('answers every request with its own x-request-id, and echoes a well-formed one the client sent', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, async () =>
        (await gw.request('GET', '/api/health')).headers.get('x-request-id'),
      ),
    );
    expect(ids.every((id) => typeof id === 'string' && /^[\w.-]{1,128}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const traced = await gw.request('GET', '/api/health', { headers: { 'x-request-id': 'trace-42' } });
    expect(traced.headers.get('x-request-id')).toBe('trace-42');
  });
});
