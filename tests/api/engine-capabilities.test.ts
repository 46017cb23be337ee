/**
 * A gateway running the `test-core` engine (ENGINE=test-core: the test engine with the core ports alone), embedded
 * and in the aws mode. It runs: a session shows a QR, links when the phone scans it and sends a text. And every route
 * that declares an engine capability answers it what the hand-written table says (tests/helpers/capability-routes.ts:
 * 501 ENGINE_UNSUPPORTED naming the engine and the capability), with its session in the state the row asks for, where
 * the `test` engine would carry the operation out. One gateway for the file: each start in the aws mode boots its own
 * serverless offline, as the functions must be told the engine too.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CAPABILITY_ROUTES, type CapabilityRouteRow, requestOf } from '#tests/helpers/capability-routes.js';
import { startTestGateway, type TestGateway, waitForStatus } from '#tests/helpers/test-gateway.js';

const KIND = 'test-core';
const PHONE = '15550003333';
const CONTACT = '15557770042@c.us';

describe('a gateway running the test-core engine', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ ENGINE: KIND });
  });
  afterAll(async () => {
    await gw.close();
  });

  /** A new session, started and brought to `status`: showing a QR, or linked from stored credentials. */
  async function sessionIn(status: CapabilityRouteRow['session']): Promise<string> {
    const { id } = await gw.createSession();
    if (status === 'ready') gw.network.storeCredentials(id, { phone: PHONE, pushName: null });
    expect((await gw.request('POST', `/api/sessions/${id}/start`)).status).toBe(200);
    await waitForStatus(gw, id, status);
    return id;
  }

  it('runs: a session shows a QR, links when it is scanned and sends a text', async () => {
    const id = await sessionIn('qr_ready');
    gw.network.scanQr(id, { phone: PHONE });
    await waitForStatus(gw, id, 'ready');

    const res = await gw.request('POST', `/api/sessions/${id}/messages/send-text`, {
      body: { chatId: CONTACT, text: 'sent by the core ports' },
    });

    expect(res).toMatchObject({ status: 201, body: { status: 'sent' } });
    expect(gw.network.sent.get(id)).toEqual([
      expect.objectContaining({ chatId: CONTACT, content: { type: 'text', text: 'sent by the core ports' } }),
    ]);
  });

  it.each(Object.entries(CAPABILITY_ROUTES))('%s answers as the table says', async (route, row) => {
    const id = await sessionIn(row.session);
    const { method, path, query } = requestOf(route, row, id);

    const res = await gw.request(method, query ? `${path}?${query}` : path, { body: row.body });

    expect(res.status).toBe(row.status[KIND]);
    if (res.status === 501) {
      expect(res.body).toMatchObject({
        code: 'ENGINE_UNSUPPORTED',
        details: { engine: KIND, capability: row.capability },
      });
    }
  });
});
