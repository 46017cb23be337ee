// Send rate of one Baileys session with the project's auth-state store (SQLite file per session behind the
// write-through cache), against the WhatsApp network simulator in its own process. The gateway runs IN this
// process (bundled from embedded/gateway.ts with esbuild, as baileys-rss.mjs does); one session is linked by QR through
// the REST API, then:
//  - engine: N texts through that session's runner (`SessionRunner.send` → the Baileys engine's send), with
//    `inFlight` sends outstanding, to ONE simulated contact; counted as sent when the send resolved and as
//    delivered when the simulator's contacts decrypted them (`GET /admin/health` stats.decryptedByContacts).
//    Each sender yields to the event loop (setImmediate) after a send, as sends arriving by HTTP or the command
//    queue start from an I/O or timer callback: with the SQLite store every await inside a send resolves in the same
//    microtask drain, so without a yield the whole run is one drain in which no ack or receipt is read and Baileys'
//    event buffer never flushes. `engineCold` is the first such run of a fresh process and includes V8's warm-up of
//    both the gateway and libsignal (measured: its mean is about two thirds of the later rate);
//    `engineBurst` is the no-yield run, for comparison with tests/wa-sim/tools/throughput.ts, which drives Baileys
//    the same way;
//  - rest: the same N through `POST /api/sessions/{id}/messages/send-text` from 50 concurrent clients in a child
//    process (SEND_WAIT_MS=1, so a request only queues the send), counted the same way at the contact. `restCold`
//    is the first REST_WARM_UP of them, in a run of their own: the HTTP path's warm-up, as `engineCold` is the
//    engine's;
//  - then ROUNDS rounds, each of `engine` (the warm engine run: the rate a running host keeps up), `rest` (the REST
//    clients back to back: the rate goal) and `restPaced` (the same N open-loop at 0.6 of that round's engine rate:
//    the latency goal, see baileys-send-rest.mjs), one right after the other.
// CPU seconds come from /proc: this process (the gateway, plus the negligible engine-phase driver) and the
// simulator process, so the report shows which side was the bottleneck.
// Baileys leaves a 30 s timer armed after each login: run.mjs ends with process.exit.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pino } from 'pino';
import { restPhase } from './baileys-send-rest.mjs';
import {
  CONTACT,
  cpuMark,
  cpuSince,
  IN_FLIGHT,
  percentiles,
  perMessage,
  RECEIPTS,
  simStats,
  TOTAL,
  waitDecrypted,
} from './baileys-send-support.mjs';
import {
  apiClient,
  linkByQr,
  loadGatewayModule,
  readAdminKey,
  sleep,
  startSimulator,
} from './baileys-support.mjs';
import { withSqliteTiming } from './sqlite-timing.mjs';
import { tempDataDir } from './support.mjs';

/** REST sends before the timed REST phase (BENCH_REST_WARM_UP, default 300). */
const REST_WARM_UP = Number(process.env.BENCH_REST_WARM_UP ?? 300);
/**
 * BENCH_API_THREAD=1 runs the gateway with API_THREAD=true: the API in a worker thread of its own (the entry built
 * by `npm run build`, as the bundle loaded here has none beside it), the host in this thread.
 */
const API_THREAD = process.env.BENCH_API_THREAD === '1';
/** Rounds of engine, REST and paced REST phases (BENCH_SEND_ROUNDS, default 3); see baileysSend. */
const ROUNDS = Number(process.env.BENCH_SEND_ROUNDS ?? 3);
/** BENCH_CPU_PROF_DIR=<dir> writes a V8 CPU profile of this process (the gateway) per timed phase. */
const PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
/** BENCH_SQL_TIMING_DIR=<dir> writes the time of every SQLite statement per timed phase (sqlite-timing.mjs). */
const SQL_TIMING_DIR = process.env.BENCH_SQL_TIMING_DIR;
/**
 * Starts the simulator (own process group) and the gateway in this process, links one session by QR, and runs
 * `fn` with them. `beforeLink(gateway)` runs once the gateway is up, before the session exists. Everything is
 * stopped afterwards, failure or not.
 */
export async function withLinkedGateway(name, extraEnv, fn, { beforeLink } = {}) {
  const mod = await loadGatewayModule();
  const dataDir = tempDataDir();
  let sim;
  let gateway;
  try {
    sim = await startSimulator();
    const env = mod.loadEnv({
      PORT: '0',
      BIND_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000000',
      API_THREAD: API_THREAD ? 'true' : 'false',
      ...sim.gatewayEnv,
      ...extraEnv,
    });
    // Logs to stderr: stdout carries the benches' JSON lines.
    const logger = pino({ level: 'warn', base: { service: 'waygate' } }, pino.destination(2));
    gateway = await mod.startGateway({
      env,
      logger,
      apiThreadEntry: new URL('../../dist/embedded/api-thread.js', import.meta.url),
    });
    const key = gateway.bootstrap.status === 'created' ? gateway.bootstrap.plaintext : readAdminKey(dataDir);
    const api = apiClient(gateway.url, key);
    await beforeLink?.(gateway);
    const link = await linkByQr(api, sim, name);
    // The host keeps its runners private; the bench reaches in rather than the gateway exposing anything new.
    const runner = gateway.host.runners.get(link.id);
    if (!runner?.hasLiveEngine) throw new Error(`no live runner for session ${link.id}`);
    return await fn({ sim, gateway, api, key, link, runner, mod });
  } finally {
    if (gateway) await Promise.race([gateway.close().catch(() => {}), sleep(15_000)]);
    await sim?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs `fn`, profiling this process meanwhile when BENCH_CPU_PROF_DIR is set (`<dir>/<name>.cpuprofile`), and timing
 * its SQLite statements when BENCH_SQL_TIMING_DIR is (`<dir>/<name>.txt`).
 */
export async function profiled(name, fn) {
  if (SQL_TIMING_DIR) return withSqliteTiming(SQL_TIMING_DIR, name, () => cpuProfiled(name, fn));
  return cpuProfiled(name, fn);
}

async function cpuProfiled(name, fn) {
  if (!PROF_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(PROF_DIR, { recursive: true });
    fs.writeFileSync(path.join(PROF_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/**
 * Configures the contact's receipts and sends 20 texts first: the first send fetches the contact's devices and
 * pre-key bundle and opens the Signal session, which no timed phase should pay for.
 */
export async function warmUp({ sim, runner, mod }) {
  await sim.admin('POST', `/contacts/${CONTACT}/config`, { autoDeliver: RECEIPTS, autoRead: false });
  const before = (await simStats(sim)).decryptedByContacts;
  for (let i = 0; i < 20; i++) {
    await runner.send({
      chatId: `${CONTACT}@c.us`,
      content: { type: 'text', text: `warm-up ${i}` },
      waMessageId: mod.generateWaMessageId(),
    });
  }
  await waitDecrypted(sim, before + 20);
  await sleep(500);
}

/** TOTAL texts through the runner, IN_FLIGHT at a time, counted where the contact decrypted them. */
export async function enginePhase({ sim, runner, mod }, yieldEach) {
  const chatId = `${CONTACT}@c.us`;
  const before = (await simStats(sim)).decryptedByContacts;
  const mark = cpuMark(sim);
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < TOTAL) {
        const n = ++next;
        const t = performance.now();
        await runner.send({
          chatId,
          content: { type: 'text', text: `engine load ${n}` },
          waMessageId: mod.generateWaMessageId(),
        });
        latencies.push(performance.now() - t);
        if (yieldEach) await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  const sentAt = performance.now();
  const decryptedAt = await waitDecrypted(sim, before + TOTAL);
  const cpu = cpuSince(mark, sim);
  const after = await simStats(sim);
  return {
    yieldBetweenSends: yieldEach,
    sent: latencies.length,
    sendsPerSecond: Math.round(TOTAL / ((sentAt - started) / 1000)),
    decryptedPerSecond: Math.round(TOTAL / ((decryptedAt - started) / 1000)),
    decrypted: after.decryptedByContacts - before,
    decryptFailures: after.decryptFailures,
    sendLatencyMs: percentiles(latencies),
    cpuS: perMessage(cpu),
  };
}

/** The REST load client: a child process running `clients` fetch loops until `total` requests were answered. */
export async function baileysSend() {
  return withLinkedGateway('bench-send', { SEND_WAIT_MS: '1' }, async (ctx) => {
    await warmUp(ctx);
    const engineCold = await profiled('send-engine-cold', () => enginePhase(ctx, true));
    await sleep(500);
    await sleep(500);
    const engineBurst = await profiled('send-engine-burst', () => enginePhase(ctx, false));
    await sleep(500);
    // The HTTP path is cold until now (the engine phases call the runner directly): its first requests pay for
    // compiling the route's code and opening 50 connections, up to 1.7 s each here. Like the engine's cold run, a
    // warm-up of the same path comes first and is reported apart.
    const restCold = await restPhase(ctx, { total: REST_WARM_UP });
    await sleep(500);
    // This machine's speed drifts between runs and within one (the engine's own rate here: 407–695/s), so a rate
    // measured seconds apart from the engine's is compared with another machine. Each round measures the engine,
    // the REST path back to back and the REST path open-loop, one after the other; the ratios are taken within a
    // round, and the report carries every round and their medians.
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const suffix = ROUNDS === 1 ? '' : `-${round}`;
      const engine = await profiled(`send-engine${suffix}`, () => enginePhase(ctx, true));
      await sleep(500);
      const rest = await profiled(`send-rest${suffix}`, () => restPhase(ctx));
      await sleep(500);
      // Back to back, 50 clients wait 50 / rate on average whatever the gateway does (Little's law): that run
      // measures the rate. The latency a client sees is measured at a given load: the same sends offered open-loop
      // at the goal's rate, 0.6 of the engine's in this round (BENCH_SEND_REST_RATE to choose another).
      const pacedRate = Number(
        process.env.BENCH_SEND_REST_RATE ?? Math.round(0.6 * engine.decryptedPerSecond),
      );
      const restPaced = await profiled(`send-rest-paced${suffix}`, () => restPhase(ctx, { rate: pacedRate }));
      await sleep(500);
      rounds.push({ engine, rest, restPaced });
    }
    return {
      total: TOTAL,
      inFlight: IN_FLIGHT,
      deliveryReceipts: RECEIPTS,
      authStore: 'sqlite file per session + write-through cache',
      apiThread: API_THREAD,
      engineCold,
      engineBurst,
      restCold,
      rounds,
    };
  });
}

/** Images sent through send-image (BENCH_SEND_IMAGE_TOTAL, default 300, of BENCH_SEND_IMAGE_BYTES, default 100 KB). */
export async function baileysSendImage() {
  const total = Number(process.env.BENCH_SEND_IMAGE_TOTAL ?? 300);
  const imageBytes = Number(process.env.BENCH_SEND_IMAGE_BYTES ?? 100 * 1024);
  return withLinkedGateway('bench-send-image', { SEND_WAIT_MS: '1' }, async (ctx) => {
    await warmUp(ctx);
    const image = await profiled('send-image', () => restPhase(ctx, { total, imageBytes }));
    return { image };
  });
}
