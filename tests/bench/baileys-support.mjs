// Helpers for the Baileys benchmarks: the WhatsApp network simulator as its own process, a small REST client for
// the gateway and the QR link flow (create, start, qr_ready, GET qr, phone scans the PNG data URL, ready).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { build, stop as stopEsbuild } from 'esbuild';
import { ROOT } from './support.mjs';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills a detached child's whole process group (best effort) and waits for the child to exit. */
export async function killGroup(child, graceMs = 8000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  signal('SIGKILL'); // anything left in the group
}

/**
 * Spawns the built gateway (`node [nodeArgs] dist/embedded/main.js`) in its own process group; `output()` keeps the
 * tail of what it printed.
 */
export function spawnGateway(env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, 'dist/embedded/main.js'], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, output: () => output };
}

/** Polls `url` until it answers 200; throws when the gateway exits first or after `timeoutMs`. */
export async function waitHttpReady(url, gateway, timeoutMs = 20_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (gateway.child.exitCode !== null) throw new Error(`gateway exited early:\n${gateway.output()}`);
    const ok = await fetch(url)
      .then((res) => res.status === 200)
      .catch(() => false);
    if (ok) return;
    await sleep(5);
  }
  throw new Error(`gateway not ready after ${timeoutMs} ms:\n${gateway.output()}`);
}

/** SIGTERM, then waits for the exit (SIGKILL after the grace); answers the time it took and the exit code. */
export async function stopGateway(gateway, graceMs = 20_000) {
  const t0 = performance.now();
  const exited = new Promise((resolve) =>
    gateway.child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  await killGroup(gateway.child, graceMs);
  return { stopMs: Math.round(performance.now() - t0), exit: await exited };
}

/** RSS of a process in MB, from /proc (Linux). */
export function rssMb(pid) {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/**
 * Starts `node --import tsx tests/wa-sim/main.ts` in its own process group and resolves with its first stdout line
 * (`{wsUrl, adminUrl, rootKey}`), its child process and an admin client.
 */
export async function startSimulator() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/wa-sim/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, SIM_PORT: '0', SIM_LOG: 'warn', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  try {
    const lines = readline.createInterface({ input: child.stdout });
    const first = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`simulator did not start within 30 s:\n${stderr}`)),
        30_000,
      );
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      child.once('exit', (code) => reject(new Error(`simulator exited with ${code}:\n${stderr}`)));
    });
    child.stdout.resume(); // keep draining
    const { wsUrl, adminUrl, rootKey } = JSON.parse(first);
    const admin = async (method, route, body) => {
      const res = await fetch(`${adminUrl}${route}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`simulator ${method} ${route} → ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    return {
      child,
      pid: child.pid,
      wsUrl,
      adminUrl,
      rootKey,
      admin,
      gatewayEnv: { ENGINE: 'baileys', WA_WEBSOCKET_URL: wsUrl, WA_SERVER_ROOT_KEY: rootKey },
      stderr: () => stderr,
      stop: () => killGroup(child, 5000),
    };
  } catch (error) {
    await killGroup(child, 2000);
    throw error;
  }
}

/** A REST client for a gateway at `baseUrl` with the admin key. */
export function apiClient(baseUrl, key) {
  return async function api(method, route, body) {
    const headers = { 'x-api-key': key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  };
}

export function readAdminKey(dataDir) {
  return fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim();
}

/** Polls GET /api/sessions/{id} every `intervalMs` until `status`; throws on timeout or on failed/disconnected. */
export async function waitForStatus(api, id, status, timeoutMs = 20_000, intervalMs = 10) {
  const deadline = performance.now() + timeoutMs;
  let last;
  while (performance.now() < deadline) {
    const res = await api('GET', `/api/sessions/${id}`);
    last = res.body?.status;
    if (last === status) return res.body;
    if (last === 'failed') throw new Error(`session ${id} failed while waiting for ${status}`);
    await sleep(intervalMs);
  }
  throw new Error(`session ${id} not ${status} after ${timeoutMs} ms (last: ${last})`);
}

let phoneCounter = 0;
/** A distinct phone number per link (digits only). */
export function nextPhone() {
  phoneCounter += 1;
  return `1555${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(5, '0')}`;
}

/**
 * Links one session by QR through the REST API and the simulated phone; answers the phase times in ms:
 * create+start → qr_ready (`toQrMs`), GET qr + scan-qr (`scanMs`), scan answered → ready (`toReadyMs`).
 */
export async function linkByQr(api, sim, name, { pollMs = 10, readyTimeoutMs = 20_000 } = {}) {
  const t0 = performance.now();
  const created = await api('POST', '/api/sessions', { name });
  if (created.status !== 201)
    throw new Error(`create ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  const { id } = created.body;
  const started = await api('POST', `/api/sessions/${id}/start`);
  if (started.status !== 200)
    throw new Error(`start ${id}: ${started.status} ${JSON.stringify(started.body)}`);
  await waitForStatus(api, id, 'qr_ready', readyTimeoutMs, pollMs);
  const t1 = performance.now();
  const qr = await api('GET', `/api/sessions/${id}/qr`);
  if (qr.status !== 200 || !String(qr.body?.qrCode).startsWith('data:image/png;base64,'))
    throw new Error(`qr ${id}: ${qr.status} ${JSON.stringify(qr.body).slice(0, 200)}`);
  const phone = nextPhone();
  await sim.admin('POST', '/mock-phone/scan-qr', { qr: qr.body.qrCode, phone });
  const t2 = performance.now();
  const session = await waitForStatus(api, id, 'ready', readyTimeoutMs, pollMs);
  if (session.phone !== phone)
    throw new Error(`session ${id} ready with phone ${session.phone}, expected ${phone}`);
  const t3 = performance.now();
  return { id, phone, totalMs: t3 - t0, toQrMs: t1 - t0, scanMs: t2 - t1, toReadyMs: t3 - t2 };
}

export const round = (n, digits = 2) => Number(n.toFixed(digits));

export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    mean: round(mean, 1),
    p50: round(pick(0.5), 1),
    p90: round(pick(0.9), 1),
    p99: round(pick(0.99), 1),
    max: round(sorted.at(-1), 1),
  };
}

/** Counts the simulator's accounts with exactly one live connection on their first device. */
export async function liveDevices(sim) {
  const accounts = await sim.admin('GET', '/accounts');
  const list = Array.isArray(accounts) ? accounts : (accounts.accounts ?? accounts.data ?? []);
  return list.filter((a) => a.devices?.some((d) => d.liveConnections === 1 && !d.loggedOut)).length;
}

/** Bundles `entry` (esbuild options: `stdin` or `entryPoints`) to dist/`name`.mjs, packages external, and imports it. */
export async function bundleAndImport(name, entry) {
  const outfile = path.join(ROOT, `dist/${name}.mjs`);
  await build({
    ...entry,
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'warning',
  });
  await stopEsbuild(); // its service process is not needed any more
  return import(pathToFileURL(outfile).href);
}

let gatewayModule = null;
/** Bundles embedded/gateway.ts once per process (packages stay external) and imports it. */
export async function loadGatewayModule() {
  gatewayModule ??= bundleAndImport('bench-gateway', {
    stdin: {
      contents: [
        "export { startGateway } from './embedded/gateway.ts';",
        "export { loadEnv } from './shared/config/env.ts';",
        "export { generateWaMessageId } from './shared/domain/wa-ids.ts';",
      ].join('\n'),
      resolveDir: ROOT,
      sourcefile: 'bench-gateway-messages-entry.ts',
      loader: 'ts',
    },
  });
  return gatewayModule;
}
