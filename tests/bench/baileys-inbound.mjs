// Inbound latency of one Baileys session: a simulated contact sends a text (simulator admin API, its own process)
// → the gateway (IN this process, bundled like baileys-rss.mjs) decrypts it, inserts the row and publishes
// `message.received` (host/messages/message-sink.ts inserts before it publishes). Each message is timed from just
// before the admin call to the moment the event reaches a subscriber of `gateway.events`; nothing is subtracted.
// The event can arrive before the admin call answers (the simulator delivers first), so events are matched by
// their unique text. Phase `sequential` (the goal): one message at a time, the next sent once the previous
// event arrived. Phase `concurrent`: `BENCH_INBOUND_CONCURRENCY` senders at once, for the latency under load.

import { withLinkedGateway } from './baileys-send.mjs';
import { percentiles } from './baileys-send-support.mjs';
import { round, sleep } from './baileys-support.mjs';
import { cpuSeconds } from './support.mjs';

const TOTAL = Number(process.env.BENCH_INBOUND_TOTAL ?? 500);
const CONCURRENCY = Number(process.env.BENCH_INBOUND_CONCURRENCY ?? 8);
const WARM_UP = 20;
const CONTACT = '15550009101';

/** Waits for the event of `text` (already arrived or still to come). */
function eventWaiter() {
  const arrived = new Map(); // text → { at, id, rowId }
  const waiting = new Map(); // text → resolve
  const onEvent = (event) => {
    if (event.event !== 'message.received') return;
    const entry = { at: performance.now(), id: event.data.id };
    const text = event.data.body;
    const resolve = waiting.get(text);
    if (resolve) {
      waiting.delete(text);
      resolve(entry);
    } else arrived.set(text, entry);
  };
  const waitFor = (text, timeoutMs = 10_000) => {
    const done = arrived.get(text);
    if (done) {
      arrived.delete(text);
      return Promise.resolve(done);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(text);
        reject(new Error(`no message.received for "${text}" within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(text, (entry) => {
        clearTimeout(timer);
        resolve(entry);
      });
    });
  };
  return { onEvent, waitFor };
}

async function runPhase({ sim, link, gateway }, waiter, label, total, concurrency) {
  const latencies = [];
  const ids = [];
  const mismatchedIds = [];
  let next = 0;
  const cpu0 = { gateway: cpuSeconds(process.pid), simulator: cpuSeconds(sim.pid) };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const n = ++next;
        const text = `${label} ${n} ${Math.random().toString(36).slice(2)}`;
        const arrival = waiter.waitFor(text);
        const t0 = performance.now();
        const sent = await sim.admin('POST', `/contacts/${CONTACT}/messages`, { to: link.phone, text });
        const event = await arrival;
        latencies.push(event.at - t0);
        ids.push(event.id);
        if (event.id !== sent.id) mismatchedIds.push({ sent: sent.id, event: event.id });
      }
    }),
  );
  const wallS = (performance.now() - started) / 1000;
  // Every timed message is a stored incoming row (checked after the clock stopped).
  const store = gateway.host.deps.messages;
  let storedRows = 0;
  for (const id of ids) {
    const row = await store.findByWaMessageId(link.id, id);
    if (row?.direction === 'incoming') storedRows += 1;
  }
  return {
    messages: latencies.length,
    concurrency,
    latencyMs: percentiles(latencies),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / latencies.length, 1),
    perSecond: Math.round(total / wallS),
    storedRows,
    idMismatches: mismatchedIds.length,
    cpuS: {
      wallS: round(wallS),
      gatewayS: round(cpuSeconds(process.pid) - cpu0.gateway),
      simulatorS: round(cpuSeconds(sim.pid) - cpu0.simulator),
    },
  };
}

export async function baileysInbound() {
  return withLinkedGateway('bench-inbound', {}, async (ctx) => {
    const waiter = eventWaiter();
    const unsubscribe = ctx.gateway.events.subscribe(waiter.onEvent);
    try {
      // Warm-up: the first messages carry the pre-key message that opens the contact's Signal session.
      await runPhase(ctx, waiter, 'warm-up', WARM_UP, 1);
      await sleep(300);
      const sequential = await runPhase(ctx, waiter, 'seq', TOTAL, 1);
      await sleep(300);
      const concurrent = await runPhase(ctx, waiter, 'conc', TOTAL, CONCURRENCY);
      return {
        total: TOTAL,
        timedFrom: 'just before POST /admin/contacts/{n}/messages',
        timedTo: 'message.received reaches a gateway.events subscriber (row inserted before publish)',
        sequential,
        concurrent,
      };
    } finally {
      unsubscribe();
    }
  });
}
