/**
 * A gateway host killed with SIGKILL in the middle of a burst of sends, then restarted on the same DATA_DIR: the
 * session comes back without a new QR, texts still decrypt both ways (no Signal session was corrupted), no
 * contact saw a message it could not decrypt, and every row of the burst settles (none stays `pending`). The
 * gateway runs as a child process with the real Baileys engine, the simulator in a process of its own; once with the
 * API in the host's thread, once with API_THREAD=true (the API's thread and the host's writing the same files).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

const PREFIX = `1558${String(process.pid % 10_000).padStart(4, '0')}`;
const BURST = 200;
const KILL_AFTER = 50;

interface ContactMessage {
  id: string;
  from: string;
  text: string;
}

const MODES = [
  { mode: "the API in the host's thread", apiThread: 'false', digit: '0' },
  { mode: 'the API in a thread of its own (API_THREAD)', apiThread: 'true', digit: '1' },
];

describe.each(MODES)(
  'Baileys engine: a host killed with SIGKILL during a burst of sends, $mode',
  ({ apiThread, digit }) => {
    // Numbers of their own per mode: both share the simulator's network when jest runs them in one process.
    const PHONE = `${PREFIX}${digit}01`;
    const CONTACT_A = `${PREFIX}9${digit}1`;
    const CONTACT_B = `${PREFIX}9${digit}2`;
    /** Requests answer at once with the `pending` row; a command in flight at the kill reappears after 2 s. */
    const BURST_ENV = {
      SEND_WAIT_MS: '1',
      COMMAND_VISIBILITY_TIMEOUT_S: '2',
      RATE_LIMIT_MAX: '100000',
      API_THREAD: apiThread,
    };

    let sim: SimulatorProcess;
    let dataDir: string;
    let sessionId: string;
    let second: GatewayProcess;
    const gateways: GatewayProcess[] = [];
    /** Burst requests the first process answered 201, by text. */
    const accepted = new Map<string, Message>();
    /** Network ids the contacts had received when the first process was killed. */
    const receivedBeforeKill = new Set<string>();
    /** The burst's rows once none is pending. */
    let settled: Message[] = [];

    const inbox = async (contact: string) =>
      (await sim.admin.get<ContactMessage[]>(`/contacts/${contact}/messages`)).body.filter((m) =>
        m.from.startsWith(PHONE),
      );
    const burstRows = async () =>
      (
        await second.request<{ messages: Message[] }>('GET', `/api/sessions/${sessionId}/messages?limit=1000`)
      ).body.messages.filter((m) => m.direction === 'outgoing' && m.body?.startsWith('burst '));

    beforeAll(async () => {
      sim = await startSimulatorProcess();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-burst-'));
      for (const contact of [CONTACT_A, CONTACT_B]) {
        await sim.admin.ok(`/contacts/${contact}/config`, { autoDeliver: true, autoRead: false });
      }
    }, 30_000);
    afterAll(async () => {
      await Promise.all(gateways.map((gateway) => gateway.stop()));
      await sim?.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    it('comes back ready without a new QR after a SIGKILL in the middle of the burst', async () => {
      const first = await spawnGateway(dataDir, { ...BURST_ENV, ...sim.gatewayEnv });
      gateways.push(first);
      sessionId = await linkProcessSession(first, sim, PHONE, 'burst');

      // The burst: all BURST requests at once, every 5th text to the second contact. Their keep-alive connections
      // are opened first: BURST fresh TCP handshakes would pace the requests down to the rate at which the host
      // sends, and no backlog of queued commands would form before the kill.
      await Promise.all(
        Array.from({ length: BURST }, () => first.request('GET', `/api/sessions/${sessionId}`)),
      );
      const burst = Promise.all(
        Array.from({ length: BURST }, async (_, i) => {
          const text = `burst ${i}`;
          const chatId = `${i % 5 === 4 ? CONTACT_B : CONTACT_A}@c.us`;
          const res = await first
            .request<Message>('POST', `/api/sessions/${sessionId}/messages/send-text`, { chatId, text })
            .catch(() => null); // the kill cuts the requests still in flight
          if (res?.status === 201) accepted.set(text, res.body);
        }),
      );
      // The kill lands in the middle of the burst: once contact A has decrypted KILL_AFTER texts, and only while a
      // row already answered 201 has not reached its contact (by network id; a count would not do, as a 201 can still
      // be on its way when its text is decrypted).
      const atKillDecision = await waitFor(
        async () => {
          const decrypted = await inbox(CONTACT_A);
          if (decrypted.length < KILL_AFTER) return null;
          const received = new Set([...decrypted, ...(await inbox(CONTACT_B))].map((m) => m.id));
          const unreceived = [...accepted.values()].filter((row) => !received.has(row.waMessageId ?? ''));
          return unreceived.length > 0
            ? { decrypted: decrypted.length, unreceived: unreceived.length }
            : null;
        },
        30_000,
        10,
      );
      first.child.kill('SIGKILL');
      await exited(first.child);
      await burst;
      expect(first.child.signalCode).toBe('SIGKILL');
      for (const m of [...(await inbox(CONTACT_A)), ...(await inbox(CONTACT_B))])
        receivedBeforeKill.add(m.id);
      console.info(
        `burst: ${accepted.size}/${BURST} requests answered 201 before the kill; at the kill decision contact A had ` +
          `decrypted ${atKillDecision.decrypted} and ${atKillDecision.unreceived} answered rows had reached no ` +
          `contact; both contacts had ${receivedBeforeKill.size} after the kill`,
      );

      second = await spawnGateway(dataDir, { ...BURST_ENV, ...sim.gatewayEnv });
      gateways.push(second);
      const seen: string[] = [];
      await readyAfterRestart(second, sessionId, seen);
      console.info(`statuses after the restart: ${seen.join(' → ')}`);
      expect(seen).not.toContain('qr_ready');
      expect(seen).not.toContain('failed');
      // The kill landed in the middle of the burst: of the rows it stored (every row answered 201 among them, as a
      // row is stored before its 201), at least one had reached no contact when the process died.
      const stored = await burstRows();
      for (const row of accepted.values())
        expect(stored.map((m) => m.waMessageId)).toContain(row.waMessageId);
      expect(stored.filter((m) => !receivedBeforeKill.has(m.waMessageId ?? '')).length).toBeGreaterThan(0);
    }, 60_000);

    it('still sends texts the contact decrypts and receives the contact’s texts', async () => {
      const sent = await second.request<Message>('POST', `/api/sessions/${sessionId}/messages/send-text`, {
        chatId: `${CONTACT_A}@c.us`,
        text: 'after the crash',
      });
      expect(sent.status).toBe(201);
      const decrypted = await waitFor(
        async () => (await inbox(CONTACT_A)).find((m) => m.id === sent.body.waMessageId),
        15_000,
      );
      expect(decrypted.text).toBe('after the crash');

      for (const contact of [CONTACT_A, CONTACT_B]) {
        const { id } = await sim.admin.ok<{ id: string }>(`/contacts/${contact}/messages`, {
          to: PHONE,
          text: `hello from ${contact}`,
        });
        const row = await waitFor(async () => {
          const page = await second.request<{ messages: Message[] }>(
            'GET',
            `/api/sessions/${sessionId}/messages?from=${contact}`,
          );
          return page.body.messages.find((m) => m.waMessageId === id);
        }, 15_000);
        expect(row).toMatchObject({ direction: 'incoming', body: `hello from ${contact}` });
      }
    }, 40_000);

    it('corrupts no Signal session, and settles every row of the burst', async () => {
      // No row stays `pending`: a command in flight or queued at the kill is redelivered to the new process.
      settled = await waitFor(
        async () => {
          const all = await burstRows();
          return all.length > 0 && all.every((m) => m.status !== 'pending') ? all : null;
        },
        30_000,
        200,
      );
      const received = [...(await inbox(CONTACT_A)), ...(await inbox(CONTACT_B))].filter((m) =>
        m.text.startsWith('burst '),
      );
      const copies = new Map<string, ContactMessage[]>();
      for (const m of received) copies.set(m.id, [...(copies.get(m.id) ?? []), m]);
      const duplicated = [...copies.values()].filter((list) => list.length > 1);
      const isSent = (m: Message) => ['sent', 'delivered', 'read'].includes(m.status);
      const count = (list: Message[]) => {
        const by: Record<string, number> = {};
        for (const m of list) by[m.status] = (by[m.status] ?? 0) + 1;
        return JSON.stringify(by);
      };
      const afterKill = settled.filter((m) => !receivedBeforeKill.has(m.waMessageId ?? ''));
      const { stats } = (await sim.admin.get<{ stats: Record<string, number> }>('/health')).body;
      console.info(
        [
          `burst rows: ${settled.length} stored (${accepted.size} answered 201), by status ${count(settled)}`,
          `  not received before the kill (in flight or queued then): ${afterKill.length}, by status ${count(afterKill)}`,
          `  failed although a contact received them: ${settled.filter((m) => m.status === 'failed' && copies.has(m.waMessageId ?? '')).length}`,
          `contacts received ${received.length} burst texts under ${copies.size} ids, ${duplicated.length} ids more than once`,
          `simulator stats: ${JSON.stringify(stats)}`,
        ].join('\n'),
      );

      // (4) Nothing failed to decrypt: no Signal session was corrupted by the kill.
      expect(stats.decryptFailures).toBe(0);
      // Every answered request left a row (the row is stored before the 201).
      for (const text of accepted.keys()) expect(settled.some((m) => m.body === text)).toBe(true);
      // (5) Every text reached its contact under its own row's id, and an id seen twice is the same text sent again
      // under the same id (at-least-once), never two texts under one id.
      for (const m of received) expect(settled.find((row) => row.waMessageId === m.id)?.body).toBe(m.text);
      for (const list of duplicated) expect(new Set(list.map((m) => m.text)).size).toBe(1);
      // (6) Every row the gateway calls sent reached its contact, exactly once unless a send was redone.
      for (const row of settled.filter(isSent)) {
        expect(copies.get(row.waMessageId ?? '')?.length ?? 0).toBeGreaterThanOrEqual(1);
        if (duplicated.length === 0) expect(copies.get(row.waMessageId ?? '')).toHaveLength(1);
      }
    }, 40_000);

    // Resumed sessions are launched before the queue is consumed, and a send waits for its session to be ready, so
    // every send still queued at the kill goes out after the restart.
    it('sends after the restart the rows whose command was in flight or queued at the kill', () => {
      expect(settled.filter((m) => m.status === 'failed')).toEqual([]);
    });
  },
);
