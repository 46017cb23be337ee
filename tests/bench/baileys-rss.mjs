// Memory per idle linked Baileys session: the gateway runs IN this process (bundled from embedded/gateway.ts with
// esbuild, so `global.gc()` reaches it; run with --expose-gc), the simulator in its own. RSS after forced GC at
// 0, 10, …, 50 sessions linked by QR through the REST API; the least-squares slope is the cost per session.
// Baileys leaves a 30 s timer armed after each login: run.mjs ends with process.exit.
import { pino } from 'pino';
import {
  apiClient,
  linkByQr,
  liveDevices,
  loadGatewayModule,
  readAdminKey,
  round,
  sleep,
  startSimulator,
} from './baileys-support.mjs';
import { tempDataDir } from './support.mjs';

const STEP = Number(process.env.BENCH_RSS_STEP ?? 10);
const MAX = Number(process.env.BENCH_RSS_SESSIONS ?? 50);
const SETTLE_MS = 2000;
const MB = 1024 * 1024;

/** Lets the sessions go idle, forces full GCs with pauses between, then samples memory. */
async function measure() {
  await sleep(SETTLE_MS);
  for (let i = 0; i < 4; i++) {
    global.gc();
    await sleep(250);
  }
  const m = process.memoryUsage();
  return {
    rssMb: round(m.rss / MB, 1),
    heapUsedMb: round(m.heapUsed / MB, 1),
    externalMb: round(m.external / MB, 1),
    arrayBuffersMb: round(m.arrayBuffers / MB, 1),
  };
}

/** Least-squares slope of y over x. */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

export async function baileysRss() {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc (npm run bench does)');
  const { startGateway, loadEnv } = await loadGatewayModule();
  const dataDir = tempDataDir();
  let sim;
  let gateway;
  try {
    sim = await startSimulator();
    const env = loadEnv({
      PORT: '0',
      BIND_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000000',
      ...sim.gatewayEnv,
    });
    // Logs to stderr: stdout carries the benches' JSON lines.
    const logger = pino({ level: 'warn', base: { service: 'waygate' } }, pino.destination(2));
    gateway = await startGateway({ env, logger });
    const key = gateway.bootstrap.status === 'created' ? gateway.bootstrap.plaintext : readAdminKey(dataDir);
    const api = apiClient(gateway.url, key);
    // Warm the HTTP path (route modules, fetch pool) so the 0-session point is not missing them.
    await api('GET', '/api/sessions');

    const points = [{ sessions: 0, ...(await measure()) }];
    let linked = 0;
    const linkMs = [];
    while (linked < MAX) {
      const target = Math.min(MAX, linked + STEP);
      for (; linked < target; linked++) {
        const link = await linkByQr(api, sim, `bench-rss-${linked}`);
        linkMs.push(link.totalMs);
      }
      points.push({ sessions: linked, ...(await measure()) });
    }
    const live = await liveDevices(sim);
    const xs = points.map((p) => p.sessions);
    const perSession = (key) =>
      round(
        slope(
          xs,
          points.map((p) => p[key]),
        ),
        3,
      );
    const linkedOnly = points.filter((p) => p.sessions > 0);
    return {
      sessions: MAX,
      rssMbPerSession: perSession('rssMb'),
      rssMbPerSessionExcludingFirst: round(
        slope(
          linkedOnly.map((p) => p.sessions),
          linkedOnly.map((p) => p.rssMb),
        ),
        3,
      ),
      heapUsedMbPerSession: perSession('heapUsedMb'),
      externalMbPerSession: perSession('externalMb'),
      points,
      liveDevices: live,
      linkMeanMs: Math.round(linkMs.reduce((a, b) => a + b, 0) / linkMs.length),
    };
  } finally {
    if (gateway) {
      await Promise.race([gateway.close().catch(() => {}), sleep(15_000)]);
    }
    await sim?.stop();
  }
}
