import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitForStatus } from '#tests/helpers/test-gateway.js';

describe('POST /api/sessions/{id}/pairing-code', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const request = (id: string, body: unknown, key?: string) =>
    gw.request('POST', `/api/sessions/${id}/pairing-code`, { body, ...(key ? { key } : {}) });

  it('answers 201 with an 8-character code, and entering it links the session', async () => {
    const session = await gw.createSession();
    await gw.request('POST', `/api/sessions/${session.id}/start`);
    await waitForStatus(gw, session.id, 'qr_ready');
    const res = await request(session.id, { phoneNumber: '15550009876' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ pairingCode: expect.stringMatching(/^[0-9A-Z]{8}$/), status: 'qr_ready' });
    gw.network.enterPairingCode(session.id, res.body.pairingCode, 'Pat');
    expect(await waitForStatus(gw, session.id, 'ready')).toMatchObject({
      phone: '15550009876',
      pushName: 'Pat',
    });
  });

  it('answers 400 when the session is not started, and when it is already authenticated', async () => {
    const session = await gw.createSession();
    const notStarted = await request(session.id, { phoneNumber: '15550009876' });
    expect([notStarted.status, notStarted.body.code]).toEqual([400, 'SESSION_NOT_STARTED']);
    gw.network.storeCredentials(session.id, { phone: '15550001234', pushName: null });
    await gw.request('POST', `/api/sessions/${session.id}/start`);
    await waitForStatus(gw, session.id, 'ready');
    const linked = await request(session.id, { phoneNumber: '15550009876' });
    expect([linked.status, linked.body.code]).toEqual([400, 'ALREADY_AUTHENTICATED']);
  });

  it.each([
    [{}, 'missing phoneNumber'],
    [{ phoneNumber: '+15550009876' }, 'a leading +'],
    [{ phoneNumber: '12345' }, 'too short'],
    [{ phoneNumber: '1555000987654321' }, 'too long'],
    [{ phoneNumber: '15550009876', extra: true }, 'an unknown field'],
  ])('answers 400 for %j (%s)', async (body, _why) => {
    const session = await gw.createSession();
    const res = await request(session.id, body);
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('answers 401 without a key, 403 for a viewer or another session’s key, 404 for an unknown session', async () => {
    const session = await gw.createSession();
    const viewer = await gw.createKey({ name: 'pairing viewer', role: 'viewer' });
    const other = await gw.createKey({
      name: 'pairing scoped',
      allowedSessions: [(await gw.createSession()).id],
    });
    const body = { phoneNumber: '15550009876' };
    expect(
      (await gw.request('POST', `/api/sessions/${session.id}/pairing-code`, { key: null, body })).status,
    ).toBe(401);
    expect((await request(session.id, body, viewer.key)).status).toBe(403);
    expect((await request(session.id, body, other.key)).status).toBe(403);
    expect((await request('00000000-0000-4000-8000-000000000001', body)).status).toBe(404);
  });
});
