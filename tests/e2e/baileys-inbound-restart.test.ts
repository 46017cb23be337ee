/**
 * Texts that contacts send while the gateway is down are held by the network and delivered at the next login,
 * marked offline (Baileys emits them as a `messages.upsert` of type `append`, not `notify`). After a restart on the
 * same data directory every one of them is stored once and published once as `message.received`: with the gateway
 * closed in-process, and run as a child process stopped with SIGTERM. The real Baileys engine talks to the
 * simulator in its own process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
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
  type SentText,
} from './inbound-support.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

const nextPhone = phoneSequence('1554');
const CONTACTS = [1, 2, 3, 4].map((n) => `1554${String(process.pid % 1000).padStart(3, '0')}900${n}`);
const PER_CONTACT = 25;
/** The child processes' env: this test polls the API more often than the default rate limit allows. */
const processEnv = (sim: SimulatorProcess) => ({ ...sim.gatewayEnv, RATE_LIMIT_MAX: '100000' });

unrefBaileysUploadTimeouts();

describe('Baileys engine: texts sent while the gateway is down are stored after the restart', () => {
  let sim: SimulatorProcess;

  beforeAll(async () => {
    sim = await startSimulatorProcess();
  }, 30_000);
  afterAll(async () => {
    await sim?.stop();
  });

  it('closed in-process: every text 4 contacts sent meanwhile is stored once and published once', async () => {
    let gw: TestGateway = await startTestGateway(sim.gatewayEnv);
    try {
      const { id, phone } = await linkSessionByQr(gw, sim, nextPhone(), { reconnectBaseDelay: 1000 });
      const rows = async () =>
        incomingRows(async (url) => (await gw.request<{ messages: Message[] }>('GET', url)).body, id);
      // Each contact writes once while the gateway runs: those arrive live (`notify`).
      const live = await contactsWrite(sim, CONTACTS, phone, 1, 'live');
      await waitFor(async () => allStored(await rows(), live), 15_000);

      await gw.close();
      await waitFor(async () => (await deviceOf(sim, phone)).liveConnections === 0);
      const offline = await contactsWrite(sim, CONTACTS, phone, PER_CONTACT, 'while down');
      // The network holds them for the device's next login.
      expect((await deviceOf(sim, phone)).offlineQueue).toBe(offline.length);

      // The restarted gateway resumes the session at once: it may log in only once its events are watched.
      await sim.admin.ok('/connections', { mode: 'refuse' });
      gw = await gw.restart();
      const events: GatewayEvent[] = [];
      gw.gateway.events.subscribe((event) => {
        events.push(event);
      });
      await sim.admin.ok('/connections', { mode: 'accept' });
      await waitForStatus(gw, id, 'ready', 20_000);
      await waitFor(async () => allStored(await rows(), offline), 30_000);
      expect((await deviceOf(sim, phone)).offlineQueue).toBe(0);

      // A text sent after the backlog makes sure nothing more of it is still on its way.
      const after = await contactsWrite(sim, CONTACTS.slice(0, 1), phone, 1, 'after');
      await waitFor(async () => allStored(await rows(), after), 15_000);
      expectStoredOnce(await rows(), [...live, ...offline, ...after]);
      expectPublishedOnce(events, [...offline, ...after]);
    } finally {
      await sim.admin.ok('/connections', { mode: 'accept' });
      await gw.close();
    }
  }, 120_000);

  it('a process stopped with SIGTERM: every text 4 contacts sent meanwhile is stored once after the restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-inbound-'));
    const gateways: GatewayProcess[] = [];
    try {
      const first = await spawnGateway(dataDir, processEnv(sim));
      gateways.push(first);
      const phone = nextPhone();
      const id = await linkProcessSession(first, sim, phone, 'inbound');
      const live = await contactsWrite(sim, CONTACTS, phone, 1, 'live');
      const rowsOf = (gateway: GatewayProcess) =>
        incomingRows(async (url) => (await gateway.request<{ messages: Message[] }>('GET', url)).body, id);
      await waitFor(async () => allStored(await rowsOf(first), live), 15_000);

      first.child.kill('SIGTERM');
      await exited(first.child);
      // A graceful stop: the process closed its engines and stores and exited by itself.
      expect(first.child.exitCode).toBe(0);
      await waitFor(async () => (await deviceOf(sim, phone)).liveConnections === 0);
      const offline: SentText[] = await contactsWrite(sim, CONTACTS, phone, PER_CONTACT, 'while down');
      expect((await deviceOf(sim, phone)).offlineQueue).toBe(offline.length);

      const second = await spawnGateway(dataDir, processEnv(sim));
      gateways.push(second);
      const seen: string[] = [];
      await readyAfterRestart(second, id, seen);
      expect(seen).not.toContain('qr_ready');
      await waitFor(async () => allStored(await rowsOf(second), offline), 30_000);
      const after = await contactsWrite(sim, CONTACTS.slice(0, 1), phone, 1, 'after');
      await waitFor(async () => allStored(await rowsOf(second), after), 15_000);
      expectStoredOnce(await rowsOf(second), [...live, ...offline, ...after]);
      expect((await deviceOf(sim, phone)).offlineQueue).toBe(0);
    } finally {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
