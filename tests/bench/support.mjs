// Helpers shared by the benchmarks: child processes, readiness polling, autocannon runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The middle value (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median, least and most of one figure over a bench's rounds, rounded to `digits`. */
export function spread(values, digits = 0) {
  const round = (value) => Number(value.toFixed(digits));
  return { median: round(median(values)), min: round(Math.min(...values)), max: round(Math.max(...values)) };
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Imports one module of the bundle that `npm run build` writes to dist/shared (adapters for benchmarks). */
export async function built(relative) {
  const file = path.join(ROOT, 'dist/shared', relative);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return import(pathToFileURL(file).href);
}

export function tempDataDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-bench-'));
}

/** Starts a process and resolves once `ready()` answers true (polled every 5 ms). */
export async function startProcess(command, args, env, ready, timeoutMs = 20_000) {
  // Its own process group, so stopping `npm start` also stops the node process npm runs.
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${command} exited early:\n${output}`);
    if (await ready().catch(() => false))
      return { child, startupMs: performance.now() - started, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill('SIGKILL');
  throw new Error(`${command} not ready after ${timeoutMs} ms:\n${output}`);
}

export async function stopProcess(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 8000);
  await exited;
  clearTimeout(timer);
  // npm may exit before its child: wait until nothing of the group is left.
  for (let i = 0; i < 400; i++) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  signalGroup('SIGKILL');
}

export const httpOk =
  (url, headers = {}) =>
  async () =>
    (await fetch(url, { headers })).status === 200;

/** The environment of an embedded gateway for benchmarks: loopback, no rate limit, warnings only. */
export function embeddedEnv(port, dataDir, extra = {}) {
  return {
    PORT: String(port),
    BIND_HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    ...extra,
  };
}

/**
 * Starts the built gateway (dist/embedded/main.js) in a fresh data dir and answers `{ child, base, dataDir, key }` once
 * it is ready; `key` is the admin key it generated.
 */
export async function startEmbeddedGateway(extra = {}) {
  const port = await freePort();
  const dataDir = tempDataDir();
  const base = `http://127.0.0.1:${port}`;
  const { child, output } = await startProcess(
    'node',
    ['dist/embedded/main.js'],
    embeddedEnv(port, dataDir, extra),
    httpOk(`${base}/api/health/ready`),
  );
  const key = fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim();
  return { child, base, dataDir, key, output };
}

/**
 * Creates a session with `key` on the gateway at `base` and answers its id and its GET URL (the load target of the
 * read benches), after one checked request.
 */
export async function createBenchSession(base, key) {
  const created = await fetch(`${base}/api/sessions`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-session' }),
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { id } = await created.json();
  const url = `${base}/api/sessions/${id}`;
  const check = await fetch(url, { headers: { 'x-api-key': key } });
  if (check.status !== 200) throw new Error(`GET answered ${check.status}: ${await check.text()}`);
  return { id, url };
}

/**
 * One autocannon run against `url`. `method` and `body` make it send something else than a GET; with `expectBody`, every
 * answer whose body differs is counted in the result's `mismatches` (an in-band error answered 200 is no success).
 */
export function load(url, { connections = 50, duration = 10, headers = {}, method, body, expectBody } = {}) {
  const request = {
    ...(method ? { method } : {}),
    ...(body ? { body } : {}),
    ...(expectBody ? { expectBody } : {}),
  };
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers, ...request }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/**
 * CPU seconds of this process's threads by kind, from /proc/self/task: `main` (the host, and the API unless
 * API_THREAD), `worker` (the API thread, named waygate-api) and `other` (the SQLite checkpointer, waygate-sqlite, 2–3 %
 * of a core in the send benchmark; V8's and libuv's helpers).
 */
export function threadCpuSeconds() {
  const byKind = { main: 0, worker: 0, other: 0 };
  // Seconds each kind spent runnable but waiting for a core (schedstat's run-queue time): CPU contention.
  const waitingByKind = { main: 0, worker: 0, other: 0 };
  for (const tid of fs.readdirSync('/proc/self/task')) {
    let comm;
    let stat;
    let schedstat;
    try {
      comm = fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      schedstat = fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const fields = stat.split(') ')[1].split(' ');
    const kind = comm === 'MainThread' ? 'main' : comm === 'waygate-api' ? 'worker' : 'other';
    byKind[kind] += (Number(fields[11]) + Number(fields[12])) / 100;
    waitingByKind[kind] += Number(schedstat.split(' ')[1]) / 1e9;
  }
  return { ...byKind, waiting: waitingByKind };
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
export function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
