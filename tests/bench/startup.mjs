// Time from `npm start` to the first 200 from /api/health/ready on an existing data dir (median of 5 starts).
import { freePort, httpOk, startProcess, stopProcess, tempDataDir } from './support.mjs';

const RUNS = 5;

export async function startupTime() {
  const dataDir = tempDataDir();
  const port = await freePort();
  const env = { PORT: String(port), BIND_HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const ready = httpOk(`http://127.0.0.1:${port}/api/health/ready`);
  // The first start creates the data dir; the measured starts find it existing.
  const first = await startProcess('npm', ['start', '--silent'], env, ready);
  await stopProcess(first.child);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await startProcess('npm', ['start', '--silent'], env, ready);
    times.push(Math.round(run.startupMs));
    await stopProcess(run.child);
  }
  const direct = await startProcess('node', ['dist/embedded/main.js'], env, ready);
  await stopProcess(direct.child);
  const sorted = [...times].sort((a, b) => a - b);
  return {
    npmStartMs: times,
    medianMs: sorted[Math.floor(sorted.length / 2)],
    nodeDirectMs: Math.round(direct.startupMs),
  };
}
