/**
 * Texts a contact sends while the network has dropped the session's connection are held by the network and
 * delivered, marked offline, when the session logs in again by itself: every one of them is stored once and
 * published once as `message.received`. The real Baileys engine talks to the simulator in its own process.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { linkSessionByQr, phoneSequence } from '#tests/helpers/link-session.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';
import {
  allStored,
  contactsWrite,
  deviceOf,
  expectPublishedOnce,
  expectStoredOnce,
  incomingRows,
} from './inbound-support.js';

const nextPhone = phoneSequence('1553');
const CONTACT = `1553${String(process.pid % 1000).padStart(3, '0')}9001`;

unrefBaileysUploadTimeouts();

describe('Baileys engine: texts sent while the connection is down are stored once it is back', () => {
  let sim: SimulatorProcess;
  let gw: TestGateway;
  const events: GatewayEvent[] = [];

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    gw = await startTestGateway(sim.gatewayEnv);
    gw.gateway.events.subscribe((event) => {
      events.push(event);
    });
  }, 30_000);
  afterAll(async () => {
    await gw?.close();
    await sim?.stop();
  });

  it('a server-side drop: 20 texts sent while reconnecting are stored once and published once after the session reconnects by itself', async () => {
    const { id, phone } = await linkSessionByQr(gw, sim, nextPhone(), { reconnectBaseDelay: 1000 });
    const rows = async () =>
      incomingRows(async (url) => (await gw.request<{ messages: Message[] }>('GET', url)).body, id);
    const live = await contactsWrite(sim, [CONTACT], phone, 1, 'live');
    await waitFor(async () => allStored(await rows(), live), 15_000);

    // The network drops the connection and refuses new ones while the contact writes, so every text is held for
    // the device's next login (none reaches a live connection).
    await sim.admin.ok('/connections', { mode: 'refuse' });
    let dropped: Awaited<ReturnType<typeof contactsWrite>>;
    try {
      expect(await sim.admin.ok(`/accounts/${phone}/disconnect`)).toEqual({ closed: 1 });
      await waitForStatus(gw, id, 'disconnected', 5000);
      dropped = await contactsWrite(sim, [CONTACT], phone, 20, 'while down');
      expect((await deviceOf(sim, phone)).offlineQueue).toBe(20);
    } finally {
      await sim.admin.ok('/connections', { mode: 'accept' });
    }
    // Nobody starts the session: it reconnects by itself at its next backoff attempt.
    expect(await waitForStatus(gw, id, 'ready', 20_000)).toMatchObject({ phone, lastError: null });
    await waitFor(async () => allStored(await rows(), dropped), 20_000, 100);
    expect((await deviceOf(sim, phone)).offlineQueue).toBe(0);

    // A text sent after the backlog makes sure nothing more of it is still on its way.
    const after = await contactsWrite(sim, [CONTACT], phone, 1, 'after');
    await waitFor(async () => allStored(await rows(), after), 15_000);
    expectStoredOnce(await rows(), [...live, ...dropped, ...after]);
    expectPublishedOnce(events, [...live, ...dropped, ...after]);
  }, 60_000);
});
