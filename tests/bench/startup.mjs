// Time from `npm start` to the first 200 from /api/health/ready, dist/ being current (nothing changed since the last
// build, as after `npm run bench`'s own build): the first start on a fresh data folder (it creates the stores and the
// admin key), then RUNS starts on that existing folder (median), and as many of `node dist/embedded/main.js` alone.
// Each start also reports the CPU its whole process tree used until ready (npm, use-node.sh, the gateway and its
// threads; user + system from /proc, Linux only): steadier than wall time on a loaded machine.
import fs from 'node:fs';
import { freePort, httpOk, median, startProcess, stopProcess, tempDataDir } from './support.mjs';

const RUNS = 5;
const TICKS_PER_SECOND = 100;

/** CPU milliseconds of every live process of the group `pgid`, with what their reaped children used; null off Linux. */
function groupCpuMs(pgid) {
  if (!fs.existsSync('/proc/self/stat')) return null;
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after the command's closing parenthesis: state is the first, pgrp the third, utime…cstime the 12th-15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return Math.round((ticks * 1000) / TICKS_PER_SECOND);
}

async function timedStart(command, args, env, ready) {
  const run = await startProcess(command, args, env, ready);
  const cpuMs = groupCpuMs(run.child.pid);
  await stopProcess(run.child);
  return { ms: Math.round(run.startupMs), cpuMs };
}

async function starts(command, args, env, ready) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timedStart(command, args, env, ready));
  return {
    ms: runs.map((run) => run.ms),
    cpuMs: runs.map((run) => run.cpuMs),
    medianMs: median(runs.map((run) => run.ms)),
    medianCpuMs: median(runs.map((run) => run.cpuMs ?? 0)),
  };
}

export async function startupTime() {
  const dataDir = tempDataDir();
  const port = await freePort();
  const env = { PORT: String(port), BIND_HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const ready = httpOk(`http://127.0.0.1:${port}/api/health/ready`);
  const first = await timedStart('npm', ['start', '--silent'], env, ready);
  const npmStart = await starts('npm', ['start', '--silent'], env, ready);
  const direct = await starts('node', ['dist/embedded/main.js'], env, ready);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    firstStartMs: first.ms,
    firstStartCpuMs: first.cpuMs,
    npmStartMs: npmStart.ms,
    npmStartCpuMs: npmStart.cpuMs,
    medianMs: npmStart.medianMs,
    medianCpuMs: npmStart.medianCpuMs,
    nodeDirectMs: direct.ms,
    nodeDirectCpuMs: direct.cpuMs,
    nodeDirectMedianMs: direct.medianMs,
    nodeDirectMedianCpuMs: direct.medianCpuMs,
  };
}
