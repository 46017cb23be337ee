/**
 * The logout teardown fence with the real Baileys engine: the simulated network holds the device's logout
 * (`remove-companion-device` unanswered), so the gateway's logout misses its teardown deadline — 502
 * SESSION_LOGOUT_INCOMPLETE, the session stopped locally, start and delete refused with 409 while the late
 * teardown is in flight, nothing audited as logged out. Releasing the hold lets the teardown settle: the
 * credentials are wiped and a start shows a QR again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { linkSessionByQr } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import {
  type SessionBody,
  startTestGateway,
  type TestGateway,
  waitFor,
  waitForStatus,
} from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

interface AccountView {
  logoutHold: boolean;
  heldLogouts: number;
  devices: { deviceId: number; liveConnections: number; loggedOut: boolean }[];
}

const TEARDOWN_TIMEOUT_MS = 800;
const PHONE = `1559${String(process.pid % 1000).padStart(3, '0')}0001`;

describe('logout teardown fence with the Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway({
      ...sim.gatewayEnv,
      ENGINE_TEARDOWN_TIMEOUT_MS: String(TEARDOWN_TIMEOUT_MS),
    });
  }, 30_000);
  afterAll(async () => {
    // Never leave the hold on: a late teardown still in flight settles before the gateway closes.
    await sim?.admin.post(`/accounts/${PHONE}/logout-hold`, { hold: false }).catch(() => undefined);
    await gw?.close();
    await sim?.stop();
  });

  const account = async () => (await sim.admin.get<AccountView>(`/accounts/${PHONE}`)).body;
  const session = async (id: string) => (await gw.request<SessionBody>('GET', `/api/sessions/${id}`)).body;
  const authDir = (id: string) => path.join(gw.dataDir, 'auth', id);

  it('fences start and delete while the network sits on the logout, and settles once it answers', async () => {
    const { id } = await linkSessionByQr(gw, sim, PHONE);
    expect(fs.existsSync(authDir(id))).toBe(true);

    await sim.admin.ok(`/accounts/${PHONE}/logout-hold`, { hold: true });
    const started = Date.now();
    const logout = await gw.request('POST', `/api/sessions/${id}/logout`);
    const took = Date.now() - started;
    expect({ status: logout.status, code: logout.body?.code, retryable: logout.body?.retryable }).toEqual({
      status: 502,
      code: 'SESSION_LOGOUT_INCOMPLETE',
      retryable: true,
    });
    expect(took).toBeGreaterThanOrEqual(TEARDOWN_TIMEOUT_MS - 50);
    // The network got the logout and is sitting on it: the device is still linked there.
    await waitFor(async () => (await account()).heldLogouts === 1, 5_000);
    expect((await account()).devices[0]?.loggedOut).toBe(false);

    const fenced = await session(id);
    expect(fenced).toMatchObject({ status: 'disconnected', phone: null });

    // Start and delete are refused while the late teardown is in flight, and change nothing.
    for (const [method, route] of [
      ['POST', `/api/sessions/${id}/start`],
      ['DELETE', `/api/sessions/${id}`],
    ] as const) {
      const refused = await gw.request(method, route);
      expect([refused.status, refused.body?.code, refused.body?.retryable]).toEqual([
        409,
        'SESSION_NAME_TEARDOWN_PENDING',
        true,
      ]);
    }
    const still = await gw.request<SessionBody>('GET', `/api/sessions/${id}`);
    expect(still.status).toBe(200);
    expect(still.body).toEqual(fenced);
    const loggedOutAudit = await gw.request('GET', `/api/audit?action=session_logged_out&sessionId=${id}`);
    expect(loggedOutAudit.body.total).toBe(0);

    // The network answers: the late teardown settles and wipes the credentials, lifting the fence. (Baileys'
    // own query timeout is 60 s: settling only then would not be the network's answer, nor fit this window.)
    expect(await sim.admin.ok(`/accounts/${PHONE}/logout-hold`, { hold: false })).toMatchObject({
      released: 1,
    });
    expect((await account()).devices[0]?.loggedOut).toBe(true);
    await waitFor(() => !fs.existsSync(authDir(id)), 15_000, 100);
    const restarted = await waitFor(async () => {
      const res = await gw.request<SessionBody>('POST', `/api/sessions/${id}/start`);
      return res.status === 409 ? null : res;
    }, 10_000);
    expect(restarted.status).toBe(200);
    // The credentials are gone: the device must be linked again.
    await waitForStatus(gw, id, 'qr_ready', 15_000);
    expect((await gw.request('GET', `/api/sessions/${id}/qr`)).body.qrCode).toMatch(
      /^data:image\/png;base64,/,
    );
  }, 60_000);
});
