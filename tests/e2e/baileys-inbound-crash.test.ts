/**
 * Inbound durability across a SIGKILL: the network stops holding a message for the linked device as soon as the
 * device confirms it (Baileys' delivery receipt), and never sends it again. A gateway killed after confirming a
 * message but before storing it would lose it for good. Each test kills the gateway (a child process, the real
 * Baileys engine, the simulator in its own process) at the moment the simulator's own record shows confirmations,
 * then checks by network id that every message the simulator had confirmed was stored by the dead process, and that
 * after a restart every text is stored exactly once: with the gateway down for a while (the backlog arrives at the
 * next login, where Baileys holds its events back the longest) and killed in the middle of a live burst.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { confirmedBySimulator, storedIncomingIds } from './inbound-crash-support.js';
import {
  allStored,
  contactsWrite,
  deviceOf,
  expectStoredOnce,
  incomingRows,
  type SentText,
} from './inbound-support.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

const PREFIX = `1559${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACTS = [1, 2, 3, 4].map((n) => `${PREFIX}90${n}`);
/** Texts each contact sends while the gateway is down, and in the live burst. */
const BACKLOG_PER_CONTACT = 30;
const BURST_PER_CONTACT = 50;
/** The kill lands once the simulator has recorded this many confirmations of the texts under test. */
const KILL_AT_BACKLOG = 5;
const KILL_AT_BURST = 40;
/** The child processes' env: these tests poll the API more often than the default rate limit allows. */
const processEnv = (sim: SimulatorProcess) => ({ ...sim.gatewayEnv, RATE_LIMIT_MAX: '100000' });

describe('Baileys engine: a host killed while texts arrive loses none the network considers delivered', () => {
  let sim: SimulatorProcess;
  let dataDir: string;
  let sessionId: string;
  const gateways: GatewayProcess[] = [];

  const start = async (): Promise<GatewayProcess> => {
    const gateway = await spawnGateway(dataDir, processEnv(sim));
    gateways.push(gateway);
    return gateway;
  };
  const rowsOf = (gateway: GatewayProcess) =>
    incomingRows(async (url) => (await gateway.request<{ messages: Message[] }>('GET', url)).body, sessionId);

  /**
   * SIGKILLs `gateway` once the simulator has confirmed `killAt` of `texts()` (the kill decision reads the
   * simulator's record, never the gateway's), waits until the network saw the connection go, and compares the
   * simulator's final record with the rows the dead process left: every confirmed text must be among them.
   */
  const killAtConfirmations = async (
    gateway: GatewayProcess,
    texts: () => readonly SentText[],
    killAt: number,
    label: string,
  ): Promise<void> => {
    const atDecision = await waitFor(
      async () => {
        const confirmed = await confirmedBySimulator(sim, texts());
        return confirmed.size >= killAt ? confirmed.size : null;
      },
      30_000,
      1,
    );
    gateway.child.kill('SIGKILL');
    await exited(gateway.child);
    expect(gateway.child.signalCode).toBe('SIGKILL');
    await waitFor(async () => (await deviceOf(sim, PHONE)).liveConnections === 0);

    const confirmed = await confirmedBySimulator(sim, texts());
    const stored = storedIncomingIds(dataDir);
    const lost = [...confirmed].filter((id) => !stored.has(id));
    const storedOfTexts = texts().filter((t) => stored.has(t.id)).length;
    console.info(
      `${label}: ${atDecision} confirmed at the kill decision; after the kill the simulator ` +
        `counts ${confirmed.size} of ${texts().length} texts confirmed, the dead process stored ${storedOfTexts}, ` +
        `${lost.length} confirmed but not stored`,
    );
    expect(lost).toEqual([]);
  };

  /** A restarted gateway: ready without a new QR, then every text stored exactly once. */
  const restartAndExpectAllStored = async (texts: readonly SentText[]): Promise<GatewayProcess> => {
    const gateway = await start();
    const seen: string[] = [];
    await readyAfterRestart(gateway, sessionId, seen);
    expect(seen).not.toContain('qr_ready');
    await waitFor(async () => allStored(await rowsOf(gateway), texts), 30_000, 100);
    // Nothing is held back for the device any more: every text was confirmed, or refused as a duplicate. A text
    // the dead process had stored and whose Signal state it had committed, killed before the receipt, comes again
    // and the restarted client refuses it (its key is spent): stored once, never lost, though its sender never
    // sees it delivered.
    await waitFor(
      async () => {
        const device = await deviceOf(sim, PHONE);
        return device.offlineQueue === 0 && device.unackedMessages === 0;
      },
      30_000,
      100,
    );
    expectStoredOnce(await rowsOf(gateway), texts);
    const confirmed = await confirmedBySimulator(sim, texts);
    console.info(`after the restart: ${texts.length} of ${texts.length} stored, ${confirmed.size} confirmed`);
    return gateway;
  };

  /** A gateway whose session is ready: the one left running, or a new one on the same data directory. */
  const running = async (): Promise<GatewayProcess> => {
    const last = gateways.at(-1);
    if (last && last.child.exitCode === null && last.child.signalCode === null) return last;
    const gateway = await start();
    await readyAfterRestart(gateway, sessionId, []);
    return gateway;
  };

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-inbound-crash-'));
    const first = await start();
    sessionId = await linkProcessSession(first, sim, PHONE, 'inbound-crash');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await sim?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('down for a while, then killed while the backlog arrives at login: every confirmed text was stored, and after a restart every text is stored once', async () => {
    const first = gateways.at(-1) as GatewayProcess;
    first.child.kill('SIGKILL');
    await exited(first.child);
    await waitFor(async () => (await deviceOf(sim, PHONE)).liveConnections === 0);

    const backlog = await contactsWrite(sim, CONTACTS, PHONE, BACKLOG_PER_CONTACT, 'while down');
    expect((await deviceOf(sim, PHONE)).offlineQueue).toBe(backlog.length);
    // The next process resumes the session by itself and receives the backlog at its login.
    const second = await start();
    await killAtConfirmations(second, () => backlog, KILL_AT_BACKLOG, 'backlog');

    await restartAndExpectAllStored(backlog);
  }, 120_000);

  it('killed in the middle of a live burst: every confirmed text was stored, and after a restart every text is stored once', async () => {
    const gateway = await running();
    // The contacts write in parallel, each text after the previous one was accepted; the kill lands mid-burst.
    const burst: SentText[] = [];
    const writing = Promise.all(
      CONTACTS.map(async (contact) => {
        for (let i = 0; i < BURST_PER_CONTACT; i++) {
          const text = `burst ${i} from ${contact}`;
          const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${contact}/messages`, {
            to: PHONE,
            text,
          });
          burst.push({ id, contact, text });
        }
      }),
    );
    await killAtConfirmations(gateway, () => burst, KILL_AT_BURST, 'burst');
    await writing;
    console.info(`burst: ${burst.length} texts written, ${(await deviceOf(sim, PHONE)).offlineQueue} held`);

    await restartAndExpectAllStored(burst);
  }, 120_000);
});
