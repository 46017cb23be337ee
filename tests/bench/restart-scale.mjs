// Many linked sessions on one host, measured from outside as a user runs it: `npm start` against the simulator (its
// own process), BENCH_SCALE_SESSIONS sessions (default 1,000) linked by QR through the REST API
// (BENCH_SCALE_LINK_CONCURRENCY at a time, default 8), then a restart (SIGTERM, `npm start` again on the same data).
// Reported: the memory the gateway keeps per idle session (RSS and heap after forced collections at checkpoints while
// linking, least-squares slopes), the time from the restart's spawn to every session `ready` (the simulator's view
// too: every device with its one live connection), reads answered meanwhile (GET /api/sessions/{id}, open-loop at
// BENCH_SCALE_READ_RATE a second, default 20: latency from the time each was due), and the CPU seconds of the gateway
// and the simulator. The gateway runs with NODE_OPTIONS='--expose-gc --import=gc-on-signal.mjs', so SIGUSR2 makes it
// collect and print its memory. BENCH_SCALE_CPU_PROF_DIR: a CPU profile of the restarted gateway.
import fs from 'node:fs';
import {
  apiClient,
  linkByQr,
  liveDevices,
  readAdminKey,
  round,
  sleep,
  startSimulator,
  stats,
} from './baileys-support.mjs';
import { loopMetrics, METRICS_TOKEN, memoryAfterGc, npmStart, stopNpmGateway } from './npm-gateway.mjs';
import { cpuSeconds, embeddedEnv, freePort, tempDataDir } from './support.mjs';

const SESSIONS = Number(process.env.BENCH_SCALE_SESSIONS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_SCALE_LINK_CONCURRENCY ?? 8);
const READ_RATE = Number(process.env.BENCH_SCALE_READ_RATE ?? 20);
const RESTART_LIMIT_MS = Number(process.env.BENCH_SCALE_RESTART_LIMIT_MS ?? 180_000);
const CPU_PROF_DIR = process.env.BENCH_SCALE_CPU_PROF_DIR;

/** The session counts at which memory is sampled: 1, then quarters (and a tenth) of the total. */
function checkpoints(total) {
  const marks = [1, 0.1, 0.25, 0.5, 0.75, 1].map((f) => Math.max(1, Math.round(f * total)));
  return [...new Set(marks)].sort((a, b) => a - b);
}

/** Least-squares slope of y over x. */
function slope(xs, ys) {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i] - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

/** Links sessions `from`…`to - 1`, CONCURRENCY at a time; answers each link's time. */
async function linkRange(api, sim, from, to, ids) {
  let next = from;
  const times = [];
  const worker = async () => {
    while (next < to) {
      const index = next++;
      const link = await linkByQr(api, sim, `scale-${index}`, { pollMs: 50, readyTimeoutMs: 120_000 });
      ids.push(link.id);
      times.push(link.totalMs);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return times;
}

/** Open-loop reads of random sessions until `stop()`: latency from when each was due. */
function readProbe(api, ids) {
  const latencies = [];
  const failures = [];
  let stopped = false;
  const inFlight = new Set();
  const start = performance.now();
  const run = (async () => {
    for (let n = 0; !stopped; n++) {
      const due = start + (n * 1000) / READ_RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const id = ids[Math.floor(Math.random() * ids.length)];
      const request = api('GET', `/api/sessions/${id}`)
        .then((res) => {
          if (res.status === 200) latencies.push(performance.now() - due);
          else failures.push(res.status);
        })
        .catch((error) => failures.push(String(error.message ?? error)))
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
  })();
  return async () => {
    stopped = true;
    await run;
    await Promise.all(inFlight);
    return {
      reads: latencies.length,
      failures: failures.slice(0, 5),
      failed: failures.length,
      latencyMs: stats(latencies),
    };
  };
}

/** Polls the session counts until every one is ready (and the simulator sees every device live). */
async function untilAllReady(api, sim, gateway, since) {
  let last = null;
  while (performance.now() - since < RESTART_LIMIT_MS) {
    if (gateway.child.exitCode !== null) throw new Error(`gateway exited:\n${gateway.output()}`);
    const res = await api('GET', '/api/sessions/stats/overview').catch(() => null);
    if (res?.status === 200) {
      last = res.body.byStatus;
      if (res.body.ready === SESSIONS) break;
    }
    await sleep(100);
  }
  const allReadyMs = performance.now() - since;
  if (last?.ready !== SESSIONS) throw new Error(`not all ready after restart: ${JSON.stringify(last)}`);
  let live = 0;
  for (let i = 0; i < 100 && live < SESSIONS; i++) {
    live = await liveDevices(sim);
    if (live < SESSIONS) await sleep(100);
  }
  return { allReadyMs: Math.round(allReadyMs), liveDevices: live };
}

/**
 * Restarts the gateway on the linked sessions' data with `extra` env and measures it: spawn → every session ready
 * (and every device live at the simulator), reads meanwhile, CPU, and the memory left once idle.
 */
async function measureRestart({ api, sim, env, ids, extra, profile }) {
  const simCpuBefore = cpuSeconds(sim.pid);
  const prof = profile && CPU_PROF_DIR ? `--cpu-prof --cpu-prof-dir=${CPU_PROF_DIR}` : '';
  const spawnedAt = performance.now();
  // NODE_OPTIONS of a restart's env are Node flags to add (npmStart sets NODE_OPTIONS for its GC hook).
  const { NODE_OPTIONS: flags = '', ...rest } = extra;
  const gateway = await npmStart({ ...env, ...rest }, `${prof} ${flags}`.trim());
  try {
    const probe = readProbe(api, ids);
    const ready = await untilAllReady(api, sim, gateway, spawnedAt);
    const reads = await probe();
    const loop = await loopMetrics(env);
    const cpuS = {
      gatewayS: round(cpuSeconds(gateway.pid)),
      simulatorS: round(cpuSeconds(sim.pid) - simCpuBefore),
    };
    await sleep(2000);
    const memoryAfter = await memoryAfterGc(gateway);
    return {
      env: extra,
      httpReadyMs: Math.round(gateway.httpReadyMs),
      ...ready,
      readsWhileReconnecting: reads,
      cpuS,
      loop,
      memoryAfter,
    };
  } finally {
    await stopNpmGateway(gateway);
  }
}

/**
 * BENCH_SCALE_RESTARTS: a JSON array of env overrides, one restart each on the same linked sessions (default `[{}]`:
 * one restart as configured), e.g. '[{},{"SESSION_CONNECT_CONCURRENCY":"4"},{"API_THREAD":"true"}]'. The first
 * restart is the one the goals are judged on.
 */
const RESTARTS = JSON.parse(process.env.BENCH_SCALE_RESTARTS ?? '[{}]');

export async function restartScale() {
  const dataDir = tempDataDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let sim;
  let first;
  try {
    sim = await startSimulator();
    const env = embeddedEnv(port, dataDir, { ...sim.gatewayEnv, METRICS_TOKEN });
    first = await npmStart(env);
    const api = apiClient(base, readAdminKey(dataDir));
    const ids = [];
    const memory = [{ sessions: 0, ...(await memoryAfterGc(first)) }];
    const linkTimes = [];
    const linkStart = performance.now();
    let linked = 0;
    for (const mark of checkpoints(SESSIONS)) {
      linkTimes.push(...(await linkRange(api, sim, linked, mark, ids)));
      linked = mark;
      await sleep(2000);
      memory.push({ sessions: mark, ...(await memoryAfterGc(first)) });
    }
    const linkS = (performance.now() - linkStart) / 1000;
    const xs = memory.map((m) => m.sessions);
    const slopeOf = (field, digits) =>
      round(
        slope(
          xs,
          memory.map((m) => m[field]),
        ),
        digits,
      );
    await stopNpmGateway(first);
    first = null;
    const restarts = [];
    for (const [n, extra] of RESTARTS.entries()) {
      restarts.push(await measureRestart({ api, sim, env, ids, extra, profile: n === 0 }));
    }
    const [restart] = restarts;
    return {
      sessions: SESSIONS,
      link: { concurrency: CONCURRENCY, totalS: round(linkS), perLinkMs: stats(linkTimes) },
      memory,
      perIdleSession: {
        rssMb: slopeOf('rssMb', 2),
        heapUsedMb: slopeOf('heapUsedMb', 3),
        rssMbAtEnd: round((restart.memoryAfter.rssMb - memory[0].rssMb) / SESSIONS, 2),
      },
      restart,
      ...(restarts.length > 1 ? { otherRestarts: restarts.slice(1) } : {}),
    };
  } finally {
    await stopNpmGateway(first);
    await sim?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
