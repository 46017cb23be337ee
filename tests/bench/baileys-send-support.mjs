// Helpers shared by the send benchmark's phases: simulator stats, decryption waits, CPU accounting.
import { round, sleep } from './baileys-support.mjs';
import { cpuSeconds, threadCpuSeconds } from './support.mjs';

export const TOTAL = Number(process.env.BENCH_SEND_TOTAL ?? 3000);
export const REST_CLIENTS = Number(process.env.BENCH_SEND_REST_CLIENTS ?? 50);
export const CONTACT = '15550009001';
/** Sends outstanding at once in the engine phases. */
export const IN_FLIGHT = Number(process.env.BENCH_SEND_IN_FLIGHT ?? 50);
/** BENCH_SEND_RECEIPTS=0 turns the contact's automatic delivery receipts off (on by default, as in production). */
export const RECEIPTS = process.env.BENCH_SEND_RECEIPTS !== '0';

export function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    p50: round(pick(0.5), 1),
    p90: round(pick(0.9), 1),
    p99: round(pick(0.99), 1),
    max: round(sorted.at(-1), 1),
  };
}

export async function simStats(sim) {
  return (await sim.admin('GET', '/health')).stats;
}

/**
 * Polls the simulator until its contacts decrypted `target` messages in all; answers when the last of them was
 * decrypted, on this process's clock (ms), as the simulator recorded it: a REST phase starts polling only once its
 * client process has exited, and the poll's own delay counted as the contact's backlog (2–16 ms in the timed phases,
 * 833 ms once in the cold one). Every 10 ms once fewer than 100 are missing, every 100 ms before: each poll is an
 * HTTP request made by this process (which is the gateway's), so polling at 10 ms throughout a phase's tail charged
 * the gateway's CPU about 0.07 ms per message.
 */
export async function waitDecrypted(sim, target, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  let last;
  while (performance.now() < deadline) {
    last = await simStats(sim);
    if (last.decryptedByContacts >= target) return last.lastDecryptedAtMs - performance.timeOrigin;
    await sleep(target - last.decryptedByContacts > 100 ? 100 : 10);
  }
  throw new Error(`contacts decrypted ${last?.decryptedByContacts} of ${target} within ${timeoutMs} ms`);
}

/** CPU seconds of this process (gateway, and by thread) and of the simulator, and the wall clock. */
export function cpuMark(sim) {
  return {
    at: performance.now(),
    gateway: cpuSeconds(process.pid),
    threads: threadCpuSeconds(),
    simulator: cpuSeconds(sim.pid),
  };
}

export function cpuSince(mark, sim, extra = {}) {
  const now = cpuMark(sim);
  const wallS = (now.at - mark.at) / 1000;
  const gatewayS = now.gateway - mark.gateway;
  const simulatorS = now.simulator - mark.simulator;
  const threadS = {
    main: now.threads.main - mark.threads.main,
    apiThread: now.threads.worker - mark.threads.worker,
    helpers: now.threads.other - mark.threads.other,
  };
  const byThread = (fn) => Object.fromEntries(Object.entries(threadS).map(([thread, s]) => [thread, fn(s)]));
  return {
    wallS: round(wallS),
    gatewayS: round(gatewayS),
    simulatorS: round(simulatorS),
    gatewayUtilisation: round(gatewayS / wallS),
    // How busy each of the gateway's threads was: the main thread runs the host (and the API unless API_THREAD).
    threadUtilisation: byThread((s) => round(s / wallS)),
    threadS: byThread((s) => round(s, 3)),
    // Share of the wall time each thread was ready to run but waited for a core.
    threadWaitingForCpu: {
      main: round((now.threads.waiting.main - mark.threads.waiting.main) / wallS),
      apiThread: round((now.threads.waiting.worker - mark.threads.waiting.worker) / wallS),
    },
    simulatorUtilisation: round(simulatorS / wallS),
    ...extra,
  };
}

/**
 * CPU per message on each side and what one core would sustain at that cost: steadier than the rates on a shared
 * machine, where the gateway process may not get a whole core (see `gatewayUtilisation`).
 */
export function perMessage(cpu, total = TOTAL) {
  const gatewayMs = (cpu.gatewayS * 1000) / total;
  const simulatorMs = (cpu.simulatorS * 1000) / total;
  return {
    ...cpu,
    gatewayMsPerMessage: round(gatewayMs, 3),
    // The same by thread: the host's thread bounds the send rate, so its cost per message beside the engine
    // phase's says how far the REST path can go (and how much the API thread and the helpers add on the side).
    threadMsPerMessage: Object.fromEntries(
      Object.entries(cpu.threadS).map(([thread, seconds]) => [thread, round((seconds * 1000) / total, 3)]),
    ),
    simulatorMsPerMessage: round(simulatorMs, 3),
    gatewayPerCorePerSecond: Math.round(1000 / gatewayMs),
    simulatorPerCorePerSecond: Math.round(1000 / simulatorMs),
  };
}
