// Sustained sends through the REST path: does the gateway's cost per send stay flat as its data grows?
// The built gateway (`dist/embedded/main.js`, real Baileys engine, default SEND_WAIT_MS, npm start's heap limit) runs
// as its own process, the WhatsApp simulator in another; one session is linked by QR. CLIENTS clients (default 20)
// then loop `POST /api/sessions/{id}/messages/send-text` for DURATION seconds (BENCH_SUSTAINED_S, default 120),
// each to its own contact; a quarter of them also have that contact write back after each answered send
// (simulator admin API), so inbound messages are stored meanwhile. Every INTERVAL seconds (default 15) it records
// the sends answered (201), the inbound rows, the gateway's CPU (from /proc, cores used), its RSS, the simulator's
// CPU, and the rows the gateway keeps in its queue file (read-only). The goal: the last interval's send rate is at
// least 0.9 of the first's. `BENCH_SUSTAINED_GATEWAY_ARGS` adds node flags to the gateway (e.g. --cpu-prof).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  apiClient,
  linkByQr,
  readAdminKey,
  round,
  rssMb,
  sleep,
  startSimulator,
} from './baileys-support.mjs';
import {
  cpuSeconds,
  embeddedEnv,
  freePort,
  httpOk,
  startProcess,
  stopProcess,
  tempDataDir,
} from './support.mjs';

const DURATION_S = Number(process.env.BENCH_SUSTAINED_S ?? 120);
const INTERVAL_S = Number(process.env.BENCH_SUSTAINED_INTERVAL_S ?? 15);
const CLIENTS = Number(process.env.BENCH_SUSTAINED_CLIENTS ?? 20);
const WRITE_BACK_EVERY = 4; // one client in four has its contact answer
// The heap limit `npm start` gives the host (WAYGATE_HEAP_MB, default 512), then any flags of the run.
const GATEWAY_ARGS = [
  `--max-old-space-size=${process.env.WAYGATE_HEAP_MB || 512}`,
  ...(process.env.BENCH_SUSTAINED_GATEWAY_ARGS ?? '').split(' ').filter(Boolean),
];

const contactOf = (client) => `1555003${String(client).padStart(4, '0')}`;

/** Counts rows of the gateway's queue file without disturbing it (read-only; WAL readers never block writers). */
function queueRows(dataDir) {
  const db = new Database(path.join(dataDir, 'queue.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const count = (table) => db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get().n;
    return { queueMessages: count('queue_messages'), queueDedup: count('queue_dedup') };
  } finally {
    db.close();
  }
}

/** One client: sends until `stopAt`, counting answers; its contact writes back when `writeBack`. */
async function client(index, { base, key, sessionId, phone, sim, stopAt, counts }) {
  const contact = contactOf(index);
  const writeBack = index % WRITE_BACK_EVERY === 0;
  for (let n = 1; performance.now() < stopAt; n++) {
    const res = await fetch(`${base}/api/sessions/${sessionId}/messages/send-text`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: `${contact}@c.us`, text: `sustained ${index}/${n}` }),
    });
    await res.arrayBuffer();
    if (res.status === 201) counts.sent += 1;
    else counts.failed[res.status] = (counts.failed[res.status] ?? 0) + 1;
    if (writeBack) {
      await sim.admin('POST', `/contacts/${contact}/messages`, { to: phone, text: `reply ${index}/${n}` });
      counts.written += 1;
    }
  }
}

export async function sendSustained() {
  const dataDir = tempDataDir();
  const sim = await startSimulator();
  let gateway;
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    gateway = await startProcess(
      'node',
      [...GATEWAY_ARGS, 'dist/embedded/main.js'],
      embeddedEnv(port, dataDir, sim.gatewayEnv),
      httpOk(`${base}/api/health/ready`),
    );
    const pid = gateway.child.pid;
    const key = readAdminKey(dataDir);
    const link = await linkByQr(apiClient(base, key), sim, 'bench-sustained');
    for (let i = 0; i < CLIENTS; i++) {
      await sim.admin('POST', `/contacts/${contactOf(i)}/config`, { autoDeliver: true, autoRead: false });
    }

    const counts = { sent: 0, written: 0, failed: {} };
    const startedAt = performance.now();
    const stopAt = startedAt + DURATION_S * 1000;
    const clients = Array.from({ length: CLIENTS }, (_, i) =>
      client(i, { base, key, sessionId: link.id, phone: link.phone, sim, stopAt, counts }),
    );
    const intervals = [];
    let mark = {
      at: startedAt,
      sent: 0,
      written: 0,
      gateway: cpuSeconds(pid),
      simulator: cpuSeconds(sim.pid),
    };
    while (performance.now() < stopAt) {
      await sleep(Math.min(INTERVAL_S * 1000, stopAt - performance.now()));
      const now = {
        at: performance.now(),
        sent: counts.sent,
        written: counts.written,
        gateway: cpuSeconds(pid),
        simulator: cpuSeconds(sim.pid),
      };
      const seconds = (now.at - mark.at) / 1000;
      const sends = now.sent - mark.sent;
      intervals.push({
        endS: round((now.at - startedAt) / 1000, 1),
        sendsPerSecond: round(sends / seconds, 1),
        writeBacksPerSecond: round((now.written - mark.written) / seconds, 1),
        gatewayCores: round((now.gateway - mark.gateway) / seconds),
        gatewayCpuMsPerSend: sends > 0 ? round(((now.gateway - mark.gateway) * 1000) / sends) : null,
        gatewayRssMb: Math.round(rssMb(pid)),
        simulatorCores: round((now.simulator - mark.simulator) / seconds),
        totalSent: now.sent,
        ...queueRows(dataDir),
      });
      mark = now;
    }
    await Promise.all(clients);
    const first = intervals[0];
    const last = intervals.at(-1);
    return {
      durationS: DURATION_S,
      intervalS: INTERVAL_S,
      clients: CLIENTS,
      writeBackClients: Math.ceil(CLIENTS / WRITE_BACK_EVERY),
      gatewayArgs: GATEWAY_ARGS,
      sent: counts.sent,
      writeBacks: counts.written,
      failed: counts.failed,
      lastToFirstRate: first && last ? round(last.sendsPerSecond / first.sendsPerSecond) : null,
      intervals,
    };
  } finally {
    if (gateway) await stopProcess(gateway.child);
    await sim.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
