/**
 * The real Baileys client inside the gateway, linked to the simulated WhatsApp network over the gateway's HTTP API:
 * QR linking (the PNG data URL decoded as a phone would), pairing codes, restart without a new QR, logouts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';

interface Account {
  phone: string;
  connected: boolean;
  devices: { deviceId: number; liveConnections: number; loggedOut: boolean }[];
}

const nextPhone = phoneSequence('1555');

describe('Baileys engine against the simulator', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;

  beforeAll(async () => {
    unrefBaileysUploadTimeouts();
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  const account = async (phone: string) => (await sim.admin.get<Account>(`/accounts/${phone}`)).body;
  const authDir = (id: string) => path.join(gw.dataDir, 'auth', id);

  async function linkByQr(): Promise<{ id: string; phone: string }> {
    const linked = await linkSessionByQr(gw, sim, nextPhone());
    expect(linked.qrCode).toMatch(/^data:image\/png;base64,/);
    return linked;
  }

  it('links by QR: the scanned PNG data URL links the account and the session is ready with its phone', async () => {
    const { id, phone } = await linkByQr();
    // The push name comes with the phone's post-link messages, which may land just after the connection opened.
    const session = await waitFor(async () => {
      const body = (await gw.request('GET', `/api/sessions/${id}`)).body;
      return body.pushName ? body : null;
    });
    expect(session).toMatchObject({ status: 'ready', phone, pushName: `Sim ${phone}` });
    expect((await account(phone)).devices[0]).toMatchObject({ liveConnections: 1, loggedOut: false });
    expect(fs.existsSync(path.join(authDir(id), 'auth.sqlite'))).toBe(true);
  }, 40_000);

  it('links by pairing code', async () => {
    const session = await gw.createSession();
    await gw.request('POST', `/api/sessions/${session.id}/start`);
    await waitForStatus(gw, session.id, 'qr_ready', 15_000);
    const phone = nextPhone();
    const code = await gw.request('POST', `/api/sessions/${session.id}/pairing-code`, {
      body: { phoneNumber: phone },
    });
    expect(code.status).toBe(201);
    expect(code.body.pairingCode).toMatch(/^[0-9A-Z]{8}$/);
    await sim.admin.ok('/mock-phone/pair-code', { phone, code: code.body.pairingCode });
    expect(await waitForStatus(gw, session.id, 'ready', 20_000)).toMatchObject({ phone });
  }, 40_000);

  it('comes back ready after a gateway restart without a new QR', async () => {
    const { id, phone } = await linkByQr();
    const statuses: string[] = [];
    gw = await gw.restart(sim.gatewayEnv);
    const unsubscribe = gw.gateway.events.subscribe((event) => {
      if (event.event === 'session.status' && event.sessionId === id) statuses.push(event.data.status);
    });
    await waitForStatus(gw, id, 'ready', 15_000);
    unsubscribe();
    expect(statuses).not.toContain('qr_ready');
    await waitFor(async () => (await account(phone)).devices[0]?.liveConnections === 1);
  }, 40_000);

  it('logs out through the API: the device is unlinked on the network and its credentials wiped', async () => {
    const { id, phone } = await linkByQr();
    const res = await gw.request('POST', `/api/sessions/${id}/logout`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'disconnected', phone: null });
    await waitFor(async () => (await account(phone)).devices[0]?.loggedOut === true);
    expect(fs.existsSync(authDir(id))).toBe(false);
  }, 40_000);

  it('a logout from the phone side leaves the session disconnected with credentials wiped and audited', async () => {
    const { id, phone } = await linkByQr();
    await sim.admin.ok(`/accounts/${phone}/logout`);
    const session = await waitForStatus(gw, id, 'disconnected', 15_000);
    expect(session).toMatchObject({ phone: null });
    await waitFor(() => !fs.existsSync(authDir(id)));
    const audit = await waitFor(async () => {
      const res = await gw.request('GET', `/api/audit?action=session_disconnected&sessionId=${id}`);
      return res.body.total === 1 ? res.body : null;
    });
    expect(audit.data[0].severity).toBe('warn');
  }, 40_000);

  it('deleting a linked session closes its connection and wipes its credentials', async () => {
    const { id, phone } = await linkByQr();
    expect((await gw.request('DELETE', `/api/sessions/${id}`)).status).toBe(204);
    expect(fs.existsSync(authDir(id))).toBe(false);
    await waitFor(async () => (await account(phone)).devices[0]?.liveConnections === 0);
  }, 40_000);
});
