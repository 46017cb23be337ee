/**
 * A gateway host killed with SIGKILL: the gateway runs as a child process (`node dist/embedded/main.js`, the
 * bundle `npm start` runs) with the real Baileys engine against the simulator in its own process. After the
 * kill a new process on the same DATA_DIR resumes the linked session from its stored credentials, and a message
 * batch the kill cut off half-way from the item it got to: counted at the simulator's contacts, every item arrives
 * once, none is lost, and the batch's progress and results through the API say the same.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import type { BatchStatusView } from '#shared/domain/message-batch.js';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

interface Account {
  devices: { deviceId: number; liveConnections: number; loggedOut: boolean }[];
}

const PREFIX = `1557${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
const CONTACTS = [`${PREFIX}901`, `${PREFIX}902`];
/** A batch's items go out a second apart at the least (its minimum delay): enough for a kill half-way. */
const ITEMS = 10;
/** The kill comes once this many of the batch's items reached their contacts. */
const KILL_AT = 4;

describe('Baileys engine: a gateway host killed with SIGKILL', () => {
  let sim: SimulatorProcess;
  let dataDir: string;
  let sessionId: string;
  const gateways: GatewayProcess[] = [];
  const current = () => gateways.at(-1) as GatewayProcess;
  // A command the dead process had taken (a batch item's send) comes back to the next one after this long.
  const spawn = async () => {
    gateways.push(await spawnGateway(dataDir, { ...sim.gatewayEnv, COMMAND_VISIBILITY_TIMEOUT_S: '2' }));
    return current();
  };

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-kill-'));
    for (const number of CONTACTS) await sim.admin.ok('/contacts', { number });
  }, 30_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await sim?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  const liveConnections = async (phone: string) =>
    (await sim.admin.get<Account>(`/accounts/${phone}`)).body.devices[0]?.liveConnections;

  it('a new process on the same DATA_DIR brings the linked session back to ready without a new QR', async () => {
    const first = await spawn();
    sessionId = await linkProcessSession(first, sim, PHONE, 'kill');
    await waitFor(async () => (await liveConnections(PHONE)) === 1);

    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');
    // The kernel closed the dead process's socket: the simulator sees the connection gone.
    await waitFor(async () => (await liveConnections(PHONE)) === 0);

    const second = await spawn();
    const seen: string[] = [];
    const ready = await readyAfterRestart(second, sessionId, seen, 20_000);
    expect(ready).toMatchObject({ phone: PHONE, lastError: null });
    expect(seen).not.toContain('qr_ready');
    expect(seen).not.toContain('failed');
    await waitFor(async () => (await liveConnections(PHONE)) === 1);
    // Still the one device linked by the scan: nothing was linked anew.
    const { devices } = (await sim.admin.get<Account>(`/accounts/${PHONE}`)).body;
    expect(devices).toEqual([expect.objectContaining({ deviceId: 1, loggedOut: false, liveConnections: 1 })]);
  }, 60_000);

  // Runs on the process the test above left ready.
  it('a batch cut off half-way by the kill goes on from where it got to: each item reaches its contact once', async () => {
    const mark = `batch ${Date.now()}`;
    const textOf = (i: number) => `${mark} item ${i}`;
    const texts = Array.from({ length: ITEMS }, (_, i) => textOf(i));
    const contactOf = (i: number) => CONTACTS[i % CONTACTS.length] as string;
    /** What the contacts hold of this batch: every copy of every message carrying its mark. */
    const arrived = async () => {
      const inboxes = await Promise.all(
        CONTACTS.map(async (c) => ({ c, inbox: await sim.admin.received(c) })),
      );
      return inboxes.flatMap(({ c, inbox }) =>
        inbox.filter((m) => m.text?.startsWith(mark)).map((m) => ({ contact: c, id: m.id, text: m.text })),
      );
    };
    // Messages the contacts decrypted: a small answer, polled every few ms so the kill follows the KILL_AT-th
    // item's arrival closely, often before the host recorded its outcome (it commits after the send).
    const decrypted = async () =>
      (await sim.admin.get<{ stats: { decryptedByContacts: number } }>('/health')).body.stats
        .decryptedByContacts;
    const before = await decrypted();
    const doomed = current();
    const accepted = await doomed.request('POST', `/api/sessions/${sessionId}/messages/send-bulk`, {
      batchId: 'cut-by-kill',
      messages: texts.map((text, i) => ({ chatId: `${contactOf(i)}@c.us`, type: 'text', content: { text } })),
      options: { delayBetweenMessages: 1000, randomizeDelay: false },
    });
    expect(accepted.status).toBe(202);
    // Killed as soon as the contacts decrypted KILL_AT items: wherever the host is then (between an item's send and
    // the record of its outcome, or waiting its delay), which varies from run to run.
    await waitFor(
      async () => {
        if ((await decrypted()) - before < KILL_AT) return false;
        doomed.child.kill('SIGKILL');
        return true;
      },
      30_000,
      2,
    );
    await exited(doomed.child);
    const atKill = new Set((await arrived()).map((m) => m.text)).size;
    expect(atKill).toBeLessThan(ITEMS);

    const next = await spawn();
    await readyAfterRestart(next, sessionId, []);
    const statusPath = `/api/sessions/${sessionId}/messages/batch/cut-by-kill`;
    const done = await waitFor(
      async () => {
        const { body } = await next.request<BatchStatusView>('GET', statusPath);
        return body.completedAt ? body : null;
      },
      60_000,
      250,
    );

    // At the contacts: one message (network id) per item, at its own contact, and nothing else of the batch. A
    // recipient keeps one message per id; a host killed between an item's send and the record of its outcome sends it
    // again under the same id (at least once on the wire), which the simulator keeps as a second copy: counted apart,
    // not as the item sent twice (a second message would have an id of its own).
    const got = await waitFor(async () => {
      const all = await arrived();
      return new Set(all.map((m) => m.text)).size === ITEMS ? all : null;
    }, 15_000);
    const ids = texts.map((text, i) => {
      const messages = [...new Set(got.filter((m) => m.text === text).map((m) => `${m.contact} ${m.id}`))];
      expect([text, messages.length]).toEqual([text, 1]);
      const [contact, id] = (messages[0] as string).split(' ');
      expect(contact).toBe(contactOf(i));
      return id;
    });
    expect(got.filter((m) => !texts.includes(m.text ?? ''))).toEqual([]);

    // The API says the same: completed, every item sent under the id its contact got, each stored once.
    expect(done).toMatchObject({
      status: 'completed',
      progress: { total: ITEMS, sent: ITEMS, failed: 0, pending: 0, cancelled: 0 },
      startedAt: expect.any(String),
    });
    expect(done.results.map((r) => [r.chatId, r.status, r.messageId])).toEqual(
      ids.map((id, i) => [`${contactOf(i)}@c.us`, 'sent', id]),
    );
    const page = await next.request<{ messages: Message[] }>(
      'GET',
      `/api/sessions/${sessionId}/messages?limit=1000`,
    );
    const rows = page.body.messages.filter((m) => m.body?.startsWith(mark));
    expect(rows.map((m) => m.waMessageId).sort()).toEqual([...ids].sort());
    console.info(
      `batch killed after ${atKill} of ${ITEMS} items reached their contacts; the contacts hold ${got.length} ` +
        `copies of ${ITEMS} messages (${got.length - ITEMS} sent again under the same id)`,
    );
  }, 120_000);
});
