// The gateway as `npm start` runs it, seen from a benchmark: started with a GC hook (gc-on-signal.mjs), its node
// process found inside npm's process group, its memory after forced collections, its event loop's own metrics, and
// a graceful stop that waits for that process rather than for npm.
import fs from 'node:fs';
import path from 'node:path';
import { killGroup, round, sleep } from './baileys-support.mjs';
import { ROOT, startProcess } from './support.mjs';

const GC_PRELOAD = path.join(ROOT, 'tests/bench/gc-on-signal.mjs');
const MB = 1024 * 1024;

/** The pid of the gateway's node process inside `npm start`'s process group (npm → sh → node scripts/start.mjs). */
function gatewayPid(groupId) {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== groupId) continue;
      // The node process itself (its own argument), not a shell whose script names it.
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const gateway = argv.includes('scripts/start.mjs') || argv.includes('dist/embedded/main.js');
      if (path.basename(argv[0] ?? '') === 'node' && gateway) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** `npm start` with the GC hook, ready once /api/health/ready answers 200. */
export async function npmStart(env, extraNodeOptions = '') {
  const nodeOptions = `--expose-gc --import=${GC_PRELOAD} ${extraNodeOptions}`.trim();
  const base = `http://127.0.0.1:${env.PORT}`;
  const spawnedAt = performance.now();
  const run = await startProcess(
    'npm',
    ['start', '--silent'],
    { ...env, NODE_OPTIONS: nodeOptions },
    async () => (await fetch(`${base}/api/health/ready`)).status === 200,
    60_000,
  );
  const pid = gatewayPid(run.child.pid);
  if (pid === null) {
    await killGroup(run.child, 5000);
    throw new Error(`no gateway process under npm start:\n${run.output()}`);
  }
  return { ...run, pid, spawnedAt, httpReadyMs: performance.now() - spawnedAt };
}

/** Forces collections in the gateway (SIGUSR2) and answers the memory it printed afterwards, in MB. */
export async function memoryAfterGc(gateway) {
  const before = gateway.output().split('bench-gc ').length;
  process.kill(gateway.pid, 'SIGUSR2');
  // A minute: with BENCH_HEAP_SNAPSHOT_DIR the gateway writes a heap snapshot first.
  for (let i = 0; i < 1200; i++) {
    const parts = gateway.output().split('bench-gc ');
    if (parts.length > before) {
      const m = JSON.parse(parts.at(-1).split('\n')[0]);
      return {
        rssMb: round(m.rss / MB, 1),
        heapUsedMb: round(m.heapUsed / MB, 1),
        externalMb: round(m.external / MB, 1),
        heapLimitMb: Math.round(m.heapLimit / MB),
      };
    }
    await sleep(50);
  }
  throw new Error('the gateway printed no memory after SIGUSR2');
}

/**
 * SIGTERM to the group, then waits for the gateway's node process itself to end (npm exits at once, and killing the
 * group then would cut the gateway's graceful shutdown short); SIGKILL after `graceMs`.
 */
export async function stopNpmGateway(gateway, graceMs = 30_000) {
  if (!gateway) return;
  const alive = () => fs.existsSync(`/proc/${gateway.pid}`) && !/\) Z /.test(procStat(gateway.pid));
  try {
    process.kill(-gateway.child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  const deadline = performance.now() + graceMs;
  while (alive() && performance.now() < deadline) await sleep(50);
  await killGroup(gateway.child, 1000);
}

function procStat(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}

export const METRICS_TOKEN = 'bench-restart-scale-metrics';

/**
 * The gateway's own view of its event loop since it started (prom-client's default metrics): the loop's delay
 * (p99, max) and the time spent in garbage collection by kind, in ms.
 */
export async function loopMetrics(env) {
  const res = await fetch(`http://127.0.0.1:${env.PORT}/api/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const value = (pattern) => {
    const line = text.split('\n').find((l) => pattern.test(l));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : null;
  };
  const ms = (seconds) => (seconds === null ? null : round(seconds * 1000, 1));
  const gc = {};
  for (const kind of ['minor', 'major', 'incremental', 'weakcb']) {
    const sum = value(new RegExp(`^(?:waygate_)?nodejs_gc_duration_seconds_sum\\{kind="${kind}"\\}`));
    const count = value(new RegExp(`^(?:waygate_)?nodejs_gc_duration_seconds_count\\{kind="${kind}"\\}`));
    if (sum !== null) gc[kind] = { totalMs: ms(sum), count };
  }
  return {
    delayP99Ms: ms(value(/^(?:waygate_)?nodejs_eventloop_lag_p99_seconds /)),
    delayMaxMs: ms(value(/^(?:waygate_)?nodejs_eventloop_lag_max_seconds /)),
    gc,
  };
}
