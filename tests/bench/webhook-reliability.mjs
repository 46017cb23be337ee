// Webhook delivery, end to end: simulated contacts write to a linked Baileys session of a gateway process (embedded
// inline, embedded with QUEUE_ENABLED=true, or the aws mode offline: serverless offline over DynamoDB Local and the
// SQS emulator, a host process, the delivery Lambda fed by the SQS trigger script), and real receivers in this
// process verify every delivery with `standardwebhooks` and with the X-Service-Signature HMAC.
//
// Per mode, three phases on one session:
// - latency: texts one at a time, each timed from just before the simulator's admin call to its arrival at the
//   receiver (one webhook), after a warm-up;
// - throughput: a burst of texts with `BENCH_WEBHOOK_FANOUT` webhooks on one fast receiver (no signature checks on
//   this one): deliveries per second from the first arrival to the last;
// - reliability: `BENCH_WEBHOOK_TOTAL` texts (10,000) with two webhooks, one receiver healthy and one answering
//   500 to 40 % of requests and leaving 10 % unanswered. Every text must reach the healthy receiver exactly once
//   after deduplication on the idempotency key, and reach the flaky one or stand in delivery-failures, never both;
//   nothing unsigned.
import fs from 'node:fs';
import { generateAdminKey, startOffline } from '#scripts/offline-stack.mjs';
import { percentiles } from './baileys-send-support.mjs';
import { apiClient, linkByQr, round, sleep, startSimulator } from './baileys-support.mjs';
import { freePort, startEmbeddedGateway, stopProcess } from './support.mjs';
import {
  contactsWrite,
  createWebhook,
  failuresOf,
  loadReceiver,
  messageIdOf,
  startCountingReceiver,
  waitUntil,
} from './webhook-support.mjs';

const TOTAL = Number(process.env.BENCH_WEBHOOK_TOTAL ?? 10_000);
const LATENCY_SAMPLES = Number(process.env.BENCH_WEBHOOK_LATENCY_SAMPLES ?? 300);
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 1_000);
const FANOUT = Number(process.env.BENCH_WEBHOOK_FANOUT ?? 10);
const CONTACTS = Number(process.env.BENCH_WEBHOOK_CONTACTS ?? 8);
const AWS_POLLERS = Number(process.env.BENCH_WEBHOOK_AWS_POLLERS ?? 16);
const SETTLE_MS = Number(process.env.BENCH_WEBHOOK_SETTLE_MS ?? 600_000);
const MODES = (process.env.BENCH_WEBHOOK_MODES ?? 'inline,queue,aws').split(',');
const SECRET = `whsec_${Buffer.from('webhook reliability bench key 32').toString('base64')}`;
/** Delivery settings of the run: retries come quickly, and an unanswered request is given up after 2 s. */
const DELIVERY_ENV = {
  SSRF_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_RETRY_DELAY: '200',
  WEBHOOK_TIMEOUT: '2000',
  RATE_LIMIT_MAX: '100000000',
};

/** The gateway of one mode, its API client, and how to stop it. */
async function startMode(mode, sim) {
  const env = { ...sim.gatewayEnv, ...DELIVERY_ENV };
  if (mode === 'aws') {
    const stack = await startOffline({
      port: await freePort(),
      tablePrefix: `bench-wh-${process.pid}-`,
      bootstrapAdminKey: generateAdminKey(),
      env: { ...env, LOG_LEVEL: 'warn' },
      // Lambda polls a deep queue with many batches at once; the trigger script's default of 2 would make every
      // batch wait for the 2 s timeouts of the flaky receiver in turn.
      webhookPollers: AWS_POLLERS,
    });
    return { api: apiClient(stack.url, stack.apiKey), stop: () => stack.stop() };
  }
  const gateway = await startEmbeddedGateway(mode === 'queue' ? { ...env, QUEUE_ENABLED: 'true' } : env);
  return {
    api: apiClient(gateway.base, gateway.key),
    output: gateway.output,
    stop: async () => {
      await stopProcess(gateway.child);
      fs.rmSync(gateway.dataDir, { recursive: true, force: true });
    },
  };
}

/** Texts one at a time, each timed from the admin call to its arrival at `receiver`. */
async function latencyPhase(sim, link, contact, receiver) {
  const latencies = [];
  for (let n = 0; n < 20 + LATENCY_SAMPLES; n++) {
    const text = `latency ${n} ${Math.random().toString(36).slice(2)}`;
    const before = receiver.accepted.length;
    const t0 = Date.now();
    await sim.admin('POST', `/contacts/${contact}/messages`, { to: link.phone, text });
    await waitUntil(
      () => receiver.accepted.slice(before).some((d) => d.body.data.body === text),
      10_000,
      `the delivery of "${text}"`,
    );
    const delivery = receiver.accepted.slice(before).find((d) => d.body.data.body === text);
    if (n >= 20) latencies.push(delivery.at - t0);
  }
  return percentiles(latencies);
}

/** A burst with FANOUT webhooks on one counting receiver: deliveries per second. */
async function throughputPhase(api, sim, link, contacts) {
  const fast = await startCountingReceiver();
  const ids = [];
  try {
    for (let i = 0; i < FANOUT; i++) ids.push(await createWebhook(api, link.id, fast.url));
    const perContact = Math.ceil(BURST / contacts.length);
    const expected = perContact * contacts.length * FANOUT;
    const started = performance.now();
    await contactsWrite(sim, contacts, link.phone, perContact, 'burst');
    // Settled: every delivery arrived or stands in delivery-failures (the inline dispatcher refuses deliveries
    // beyond its waiting line).
    let failed = 0;
    await waitUntil(
      async () => {
        failed = (await failuresOf(api, link.id)).filter((f) => ids.includes(f.webhookId)).length;
        return fast.arrivals.length + failed >= expected;
      },
      300_000,
      () => `${expected} fan-out deliveries (${fast.arrivals.length} arrived, ${failed} failed)`,
    );
    const first = fast.arrivals[0];
    const last = fast.arrivals.at(-1);
    return {
      texts: perContact * contacts.length,
      webhooks: FANOUT,
      deliveries: fast.arrivals.length,
      failed,
      deliveriesPerSecond: Math.round(fast.arrivals.length / ((last - first) / 1000)),
      textsPerSecond: round((perContact * contacts.length) / ((last - started) / 1000), 0),
    };
  } finally {
    for (const id of ids) await api('DELETE', `/api/sessions/${link.id}/webhooks/${id}`);
    await fast.close();
  }
}

async function reliabilityPhase(api, sim, link, contacts, healthy, flaky, { receivers }) {
  const healthyId = await createWebhook(api, link.id, healthy.url, SECRET);
  const flakyId = await createWebhook(api, link.id, flaky.url, SECRET);
  flaky.set({ failRatio: 0.4, timeoutRatio: 0.1 });
  const perContact = Math.ceil(TOTAL / contacts.length);
  const started = performance.now();
  const texts = await contactsWrite(sim, contacts, link.phone, perContact, 'reliability');
  const sentS = (performance.now() - started) / 1000;
  const ids = new Set(texts.map((t) => t.id));
  const idsAt = (receiver) =>
    new Set(receiver.accepted.map((d) => String(d.body.data.id)).filter((id) => ids.has(id)));
  let all = [];
  const failedIdsOf = (webhookId) =>
    new Set(
      all
        .filter((f) => f.webhookId === webhookId)
        .map((f) => messageIdOf(f.idempotencyKey, link.id, webhookId)),
    );
  /** Texts a webhook has neither delivered nor recorded as failed. */
  const open = (receiver, webhookId) => {
    const done = new Set([...idsAt(receiver), ...failedIdsOf(webhookId)]);
    return [...ids].filter((id) => !done.has(id)).length;
  };
  await waitUntil(
    async () => {
      all = await failuresOf(api, link.id);
      return open(healthy, healthyId) === 0 && open(flaky, flakyId) === 0;
    },
    SETTLE_MS,
    () =>
      `every text delivered or recorded as failed (open: healthy ${open(healthy, healthyId)}, ` +
      `flaky ${open(flaky, flakyId)}, of ${ids.size})`,
  );
  const settledS = (performance.now() - started) / 1000;
  // Late retries of deliveries already counted would show as extra keys: give them a moment, then count.
  await sleep(3000);
  all = await failuresOf(api, link.id);
  const count = (receiver, webhookId) => {
    const mine = receiver.accepted.filter((d) => ids.has(String(d.body.data.id)));
    const keysById = new Map();
    for (const d of mine) {
      const id = String(d.body.data.id);
      keysById.set(id, (keysById.get(id) ?? new Set()).add(d.idempotencyKey));
    }
    const failures = all.filter((f) => f.webhookId === webhookId);
    const failedIds = failedIdsOf(webhookId);
    const deliveredIds = idsAt(receiver);
    return {
      distinct: keysById.size,
      failureRows: failures.length,
      failureRowsByAttempts: Object.fromEntries(
        [...new Set(failures.map((f) => f.attempts))].map((a) => [
          a,
          failures.filter((f) => f.attempts === a).length,
        ]),
      ),
      deliveredAndFailed: [...failedIds].filter((id) => deliveredIds.has(id)).length,
      lost: open(receiver, webhookId),
      accepted: mine.length,
      replays: mine.length - keysById.size,
      keysPerTextAboveOne: [...keysById.values()].filter((keys) => keys.size > 1).length,
      unsigned: mine.filter((d) => !d.verified).length,
      wrongKey: mine.filter(
        (d) => messageIdOf(d.idempotencyKey, link.id, webhookId) !== String(d.body.data.id),
      ).length,
    };
  };
  const healthyFigures = { ...count(healthy, healthyId), requests: receivers.healthy() };
  const flakyFigures = { ...count(flaky, flakyId), requests: receivers.flaky() };
  const clean = (f) =>
    f.lost === 0 &&
    f.deliveredAndFailed === 0 &&
    f.keysPerTextAboveOne === 0 &&
    f.unsigned === 0 &&
    f.wrongKey === 0;
  return {
    texts: ids.size,
    sentPerSecond: round(ids.size / sentS, 0),
    settledS: round(settledS, 1),
    healthy: healthyFigures,
    flaky: flakyFigures,
    ok: clean(healthyFigures) && clean(flakyFigures),
  };
}

async function runMode(mode) {
  const { startWebhookReceiver } = await loadReceiver();
  const sim = await startSimulator();
  let gateway;
  const healthy = await startWebhookReceiver(SECRET);
  const flaky = await startWebhookReceiver(SECRET);
  try {
    gateway = await startMode(mode, sim);
    const link = await linkByQr(gateway.api, sim, `bench-webhooks-${mode}`);
    const contacts = Array.from({ length: CONTACTS }, (_, i) => `1555777${String(i).padStart(4, '0')}`);
    for (const contact of contacts) await sim.admin('POST', '/contacts', { number: contact, name: contact });
    const latencyHook = await createWebhook(gateway.api, link.id, healthy.url, SECRET);
    const latencyMs = await latencyPhase(sim, link, contacts[0], healthy);
    await gateway.api('DELETE', `/api/sessions/${link.id}/webhooks/${latencyHook}`);
    const throughput = await throughputPhase(gateway.api, sim, link, contacts);
    const reliability = await reliabilityPhase(gateway.api, sim, link, contacts, healthy, flaky, {
      receivers: { healthy: () => healthy.requests(), flaky: () => flaky.requests() },
    }).catch((error) => {
      // What the gateway logged last says why a run did not settle.
      console.error(`${mode} gateway output (last lines):\n${gateway.output?.().slice(-4000) ?? ''}`);
      throw error;
    });
    return { latencyMs, throughput, reliability };
  } finally {
    await gateway?.stop();
    await healthy.close();
    await flaky.close();
    await sim.stop();
  }
}

/**
 * Runs the modes of BENCH_WEBHOOK_MODES one after another (each with its own simulator and gateway); each mode's
 * figures also go to stderr as soon as it is done, and a mode that fails is reported without stopping the others.
 */
export async function webhookReliability() {
  const modes = {};
  for (const mode of MODES) {
    modes[mode] = await runMode(mode).catch((error) => ({ error: String(error?.stack ?? error) }));
    process.stderr.write(`webhooks ${mode}: ${JSON.stringify(modes[mode])}\n`);
  }
  return { total: TOTAL, modes };
}
