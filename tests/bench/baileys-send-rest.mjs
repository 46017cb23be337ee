// The REST phase of the send benchmark: 50 concurrent HTTP clients in a child process calling send-text.
import { spawn } from 'node:child_process';
import {
  CONTACT,
  cpuMark,
  cpuSince,
  perMessage,
  REST_CLIENTS,
  simStats,
  TOTAL,
  waitDecrypted,
} from './baileys-send-support.mjs';
import { killGroup, round } from './baileys-support.mjs';
import { ROOT } from './support.mjs';

const REST_CLIENT_SCRIPT = `
const { URL_, KEY, TOTAL, CLIENTS, CHAT } = process.env;
const total = Number(TOTAL);
let next = 0;
const latencies = [];
const statuses = {};
const started = performance.now();
await Promise.all(Array.from({ length: Number(CLIENTS) }, async () => {
  while (next < total) {
    const n = ++next;
    const t = performance.now();
    const res = await fetch(URL_, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ chatId: CHAT, text: 'rest load ' + n }),
    });
    await res.arrayBuffer();
    latencies.push(performance.now() - t);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
}));
const ms = performance.now() - started;
latencies.sort((a, b) => a - b);
const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ ms, statuses, p50: pick(0.5), p99: pick(0.99), cpuS: (cpu.user + cpu.system) / 1e6 }) + '\\n');
`;

export async function restPhase({ sim, gateway, key, link, runner }) {
  const before = (await simStats(sim)).decryptedByContacts;
  const mark = cpuMark(sim);
  const child = spawn(process.execPath, ['--input-type=module', '-e', REST_CLIENT_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      URL_: `${gateway.url}/api/sessions/${link.id}/messages/send-text`,
      KEY: key,
      TOTAL: String(TOTAL),
      CLIENTS: String(REST_CLIENTS),
      CHAT: `${CONTACT}@c.us`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err = (err + c).slice(-5000)));
    const started = performance.now();
    const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
    const answeredAt = performance.now();
    if (code !== 0) throw new Error(`REST client exited with ${code}: ${err}`);
    const client = JSON.parse(out.trim().split('\n').at(-1));
    if (client.statuses['201'] !== TOTAL) throw new Error(`REST answers: ${JSON.stringify(client.statuses)}`);
    const decryptedAt = await waitDecrypted(sim, before + TOTAL, 120_000);
    const cpu = perMessage(cpuSince(mark, sim, { clientS: round(client.cpuS) }));
    const after = await simStats(sim);
    if (!runner.hasLiveEngine) throw new Error('the session lost its engine during the REST phase');
    return {
      clients: REST_CLIENTS,
      answered: client.statuses,
      requestsPerSecond: Math.round(TOTAL / ((answeredAt - started) / 1000)),
      decryptedPerSecond: Math.round(TOTAL / ((decryptedAt - started) / 1000)),
      decrypted: after.decryptedByContacts - before,
      requestLatencyMs: { p50: round(client.p50, 1), p99: round(client.p99, 1) },
      cpuS: cpu,
    };
  } finally {
    await killGroup(child, 2000);
  }
}
