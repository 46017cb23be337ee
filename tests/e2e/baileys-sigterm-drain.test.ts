/**
 * A gateway stopped with SIGTERM during a burst of 200 sends and 100 inbound texts drops nothing. The gateway (the
 * `npm start` bundle, a child process with the real Baileys engine; the simulator in a process of its own) drains:
 * readiness answers 503 `shutdown: draining` at once, new sends are refused (503 SHUTTING_DOWN) and the sends taken
 * finish or go back to the queue, inbound texts are stored and their webhooks delivered (or left in the outbox), and
 * the process exits 0. Restarted on the same DATA_DIR, with every refused or cut-off request retried under its
 * Idempotency-Key as a client would: every send reached its contact exactly once, every inbound text is stored once
 * and reached the webhook receiver under one key, and no delivery was abandoned (no failure rows).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { expectEachDeliveredOnce } from '#tests/helpers/delivered-once.js';
import { exited, type GatewayProcess, spawnGateway } from '#tests/helpers/gateway-process.js';
import { type SimulatorProcess, startSimulatorProcess } from '#tests/helpers/simulator-process.js';
import { waitFor } from '#tests/helpers/test-gateway.js';
import { startWebhookReceiver, type WebhookReceiver } from '#tests/helpers/webhook-receiver.js';
import { allStored, contactsWrite, expectStoredOnce, incomingRows } from './inbound-support.js';
import { linkProcessSession, readyAfterRestart } from './process-session.js';

const PREFIX = `1552${String(process.pid % 10_000).padStart(4, '0')}`;
const PHONE = `${PREFIX}001`;
/** Contacts the gateway sends to, and contacts that write to it. */
const RECIPIENTS = [`${PREFIX}901`, `${PREFIX}902`];
const WRITERS = [`${PREFIX}911`, `${PREFIX}912`];
const BURST = 200;
const PER_WRITER = 50;
/** Requests in flight at once: the burst goes on through the SIGTERM, so some arrive while the gateway drains. */
const LANES = 8;
/** SIGTERM once this many sends were answered. */
const SIGTERM_AT_ANSWERED = 60;
const SECRET = `whsec_${Buffer.from('drain test key, thirty-two bytes').toString('base64')}`;
const GATEWAY_ENV = {
  SEND_WAIT_MS: '1',
  RATE_LIMIT_MAX: '100000',
  SSRF_ALLOWED_HOSTS: '127.0.0.1',
  OUTBOX_SWEEP_AFTER_MS: '1000',
  OUTBOX_SWEEP_INTERVAL_MS: '500',
};

/** How a send request ended: its row, a refusal by the draining gateway, or no answer (the API had closed). */
type Outcome = { row: Message } | { refused: string } | { cutOff: true };

describe('a gateway stopped with SIGTERM during a burst of sends and inbound texts', () => {
  let sim: SimulatorProcess;
  let receiver: WebhookReceiver;
  let dataDir: string;
  let sessionId: string;
  const gateways: GatewayProcess[] = [];
  const current = () => gateways.at(-1) as GatewayProcess;
  const start = async () => {
    gateways.push(await spawnGateway(dataDir, { ...sim.gatewayEnv, ...GATEWAY_ENV }));
    return current();
  };

  beforeAll(async () => {
    sim = await startSimulatorProcess();
    receiver = await startWebhookReceiver(SECRET);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-e2e-drain-'));
    for (const contact of RECIPIENTS) {
      await sim.admin.ok(`/contacts/${contact}/config`, { autoDeliver: true, autoRead: false });
    }
  }, 30_000);
  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await receiver?.close();
    await sim?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  const apiKey = () => fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim();

  /** Send `i`: a text to one of the recipients, under its own Idempotency-Key. */
  async function send(gateway: GatewayProcess, i: number): Promise<Outcome> {
    const res = await fetch(`${gateway.url}/api/sessions/${sessionId}/messages/send-text`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey(), 'content-type': 'application/json', 'idempotency-key': `drain-${i}` },
      body: JSON.stringify({ chatId: `${RECIPIENTS[i % 2]}@c.us`, text: `drain ${i}` }),
    }).catch(() => null);
    if (!res) return { cutOff: true };
    const body = (await res.json()) as Message & { code?: string };
    if (res.status === 201) return { row: body };
    return { refused: `${res.status} ${body.code}` };
  }

  /** The recipients' copies of the gateway's messages. */
  const inboxes = async () =>
    (await Promise.all(RECIPIENTS.map((contact) => sim.admin.received(contact))))
      .flat()
      .filter((m) => m.from.startsWith(PHONE));

  it('drains, exits 0, and after a restart nothing is lost or sent twice', async () => {
    const first = await start();
    sessionId = await linkProcessSession(first, sim, PHONE, 'drain');
    const hook = await first.request('POST', `/api/sessions/${sessionId}/webhooks`, {
      url: receiver.url,
      events: ['message.received'],
      secret: SECRET,
    });
    expect(hook.status).toBe(201);

    const outcomes = new Map<number, Outcome>();
    let signalled = false;
    const readiness: { status: number; body: unknown }[] = [];
    const sigterm = () => {
      if (signalled) return;
      signalled = true;
      first.child.kill('SIGTERM');
      // Readiness turns at once and stays 503 while the gateway drains, until the API closes.
      void (async () => {
        for (;;) {
          const res = await fetch(`${first.url}/api/health/ready`).catch(() => null);
          if (!res) return;
          readiness.push({ status: res.status, body: await res.json() });
        }
      })();
    };
    const writing = contactsWrite(sim, WRITERS, PHONE, PER_WRITER, 'inbound');
    let next = 0;
    const lanes = Array.from({ length: LANES }, async () => {
      for (let i = next++; i < BURST; i = next++) {
        const outcome = await send(first, i);
        outcomes.set(i, outcome);
        const answered = [...outcomes.values()].filter((o) => 'row' in o).length;
        if (answered >= SIGTERM_AT_ANSWERED) sigterm();
      }
    });
    await Promise.all(lanes);
    await exited(first.child);
    expect([first.child.exitCode, first.child.signalCode]).toEqual([0, null]);
    expect(first.output.some((line) => line.includes('SIGTERM received'))).toBe(true);

    const counts = { answered: 0, refused: 0, cutOff: 0 };
    for (const o of outcomes.values())
      counts['row' in o ? 'answered' : 'refused' in o ? 'refused' : 'cutOff']++;
    const refusals = new Set([...outcomes.values()].flatMap((o) => ('refused' in o ? [o.refused] : [])));
    console.info(
      `SIGTERM after ${SIGTERM_AT_ANSWERED} answered: ${counts.answered} sends answered 201, ${counts.refused} ` +
        `refused while draining, ${counts.cutOff} cut off; readiness answered ${readiness.length} probes after the signal`,
    );
    // Requests kept coming while the gateway drained: refused with the drain's code, or unanswered once it closed.
    expect(counts.refused + counts.cutOff).toBeGreaterThan(0);
    expect([...refusals]).toEqual(counts.refused > 0 ? ['503 SHUTTING_DOWN'] : []);
    // A probe may reach the process before its signal handler ran (200); from the first 503 on, every answer drains.
    const turned = readiness.findIndex((answer) => answer.status === 503);
    const draining = turned < 0 ? [] : readiness.slice(turned);
    expect(readiness.slice(0, readiness.length - draining.length).every((a) => a.status === 200)).toBe(true);
    expect(draining.length).toBeGreaterThan(0);
    for (const answer of draining) {
      expect(answer).toEqual({
        status: 503,
        body: expect.objectContaining({
          status: 'error',
          details: expect.objectContaining({ shutdown: { status: 'draining' } }),
        }),
      });
    }

    const restarted = await start();
    const seen: string[] = [];
    await readyAfterRestart(restarted, sessionId, seen);
    expect(seen).not.toContain('qr_ready');
    // The client retries what was refused or cut off, under the same keys.
    for (let i = 0; i < BURST; i++) {
      if (!('row' in (outcomes.get(i) as Outcome))) {
        outcomes.set(
          i,
          await waitFor(
            async () => {
              const o = await send(restarted, i);
              return 'row' in o ? o : null;
            },
            30_000,
            200,
          ),
        );
      }
    }
    const rows = [...outcomes.values()].map((o) => (o as { row: Message }).row);
    const ids = rows.map((row) => row.waMessageId ?? '');
    expect(new Set(ids).size).toBe(BURST);

    // Every send settles sent and reached its recipient once: a drained process finished or handed back its sends.
    const settled = await waitFor(
      async () => {
        const page = await restarted.request<{ messages: Message[] }>(
          'GET',
          `/api/sessions/${sessionId}/messages?limit=1000`,
        );
        const mine = page.body.messages.filter((m) => ids.includes(m.waMessageId ?? ''));
        return mine.length === BURST && mine.every((m) => m.status !== 'pending') ? mine : null;
      },
      60_000,
      500,
    );
    expect(settled.filter((m) => m.status === 'failed')).toEqual([]);
    const received = await waitFor(
      async () => {
        const all = await inboxes();
        const got = new Set(all.map((m) => m.id));
        return ids.every((id) => got.has(id)) ? all : null;
      },
      60_000,
      500,
    );
    expect(received.filter((m) => !ids.includes(m.id))).toEqual([]);
    expect(ids.filter((id) => received.filter((m) => m.id === id).length !== 1)).toEqual([]);

    // Every inbound text is stored once and reached the receiver under one key; no delivery was abandoned.
    const texts = await writing;
    expect(texts).toHaveLength(WRITERS.length * PER_WRITER);
    const incoming = async () =>
      incomingRows(async (url) => (await restarted.request('GET', url)).body, sessionId);
    await waitFor(async () => allStored(await incoming(), texts), 60_000, 250);
    expectStoredOnce(await incoming(), texts);
    await expectEachDeliveredOnce(receiver, texts, 'SIGTERM drain', 60_000);
    const failures = await restarted.request<unknown[]>('GET', '/api/webhooks/delivery-failures');
    expect([failures.status, failures.body]).toEqual([200, []]);
  }, 240_000);
});
