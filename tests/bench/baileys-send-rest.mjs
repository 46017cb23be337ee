// The REST phases of the send benchmark: 50 concurrent HTTP clients in a child process calling send-text, or
// send-image with a 100 KB file as base64 (BENCH_SEND_IMAGE_BYTES); counted where the contact decrypted (an image
// once the contact downloaded, checked and decrypted its file from the simulator's media host). Each client reads
// the session a few times first, untimed, and the rates count from the first timed send.
// With `rate` the clients send open-loop instead of back to back: request n is due at n / rate seconds after the
// start, whichever client is free takes it, and its latency counts from when it was due (so a request that waits for
// a free client because the gateway fell behind is charged that wait: no coordinated omission).
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  CONTACT,
  cpuMark,
  cpuSince,
  percentiles,
  perMessage,
  REST_CLIENTS,
  simStats,
  TOTAL,
  waitDecrypted,
} from './baileys-send-support.mjs';
import { killGroup, round } from './baileys-support.mjs';
import { ROOT } from './support.mjs';

const REST_CLIENT_SCRIPT = `
const { URL_, KEY, TOTAL, CLIENTS, CHAT, IMAGE_BYTES, RATE, RAW_CLIENT } = process.env;
// One kept-alive socket per client, through the bench's own minimal client (raw-http-client.mjs): it spends a
// fraction of node:http's CPU per request, CPU this load generator would otherwise take from the gateway beside it.
const { rawHttpClient } = await import(RAW_CLIENT);
const rate = Number(RATE);
const WARM_UP = 5;
const total = Number(TOTAL);
// The same file for every image send: a PNG signature, then bytes that do not compress.
const { randomBytes } = await import('node:crypto');
const image = IMAGE_BYTES
  ? Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(Number(IMAGE_BYTES) - 8)]).toString('base64')
  : null;
const bodyOf = (n) =>
  image
    ? { chatId: CHAT, data: image, mimetype: 'image/png', caption: 'rest image ' + n }
    : { chatId: CHAT, text: 'rest load ' + n };
// A fresh process: its HTTP client code is cold and it has no connection yet. Each client first reads the session
// a few times (untimed), so the figures are the gateway's rather than this load generator's warm-up.
const sendPath = new URL(URL_).pathname;
const sessionPath = sendPath.slice(0, sendPath.lastIndexOf('/messages/'));
const clients = await Promise.all(Array.from({ length: Number(CLIENTS) }, async () => {
  const client = await rawHttpClient(URL_);
  for (let i = 0; i < WARM_UP; i++) await client.request('GET', sessionPath, { 'x-api-key': KEY });
  return client;
}));
let next = 0;
const latencies = [];
const statuses = {};
let late = 0;
const started = performance.now();
await Promise.all(clients.map(async (client) => {
  while (next < total) {
    const n = ++next;
    let t = performance.now();
    if (rate) {
      const due = started + ((n - 1) * 1000) / rate;
      if (due > t) await new Promise((resolve) => setTimeout(resolve, due - t));
      else if (t - due > 1) late++;
      t = due;
    }
    const status = await client.request('POST', sendPath, { 'x-api-key': KEY, 'content-type': 'application/json' }, JSON.stringify(bodyOf(n)));
    latencies.push(performance.now() - t);
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}));
const ms = performance.now() - started;
for (const client of clients) client.close();
const cpu = process.cpuUsage();
const bodyBytes = Buffer.byteLength(JSON.stringify(bodyOf(1)));
// When the timed sends began, on the wall clock (the parent converts it to its own clock).
const startedEpochMs = performance.timeOrigin + started;
process.stdout.write(JSON.stringify({ ms, startedEpochMs, statuses, bodyBytes, late, latencies, cpuS: (cpu.user + cpu.system) / 1e6 }) + '\\n');
`;

/**
 * `total` sends from REST_CLIENTS clients: texts, or images of `imageBytes` each; back to back, or open-loop at
 * `rate` requests per second. Answers the rates, the request latency, CPU per message on each side and, for images,
 * the bytes of the file per message at each hop.
 */
export async function restPhase(
  { sim, gateway, key, link, runner },
  { total = TOTAL, imageBytes = 0, rate = 0 } = {},
) {
  const before = (await simStats(sim)).decryptedByContacts;
  const uploadedBefore = (await sim.admin('GET', '/health')).media?.bytes ?? 0;
  const mark = cpuMark(sim);
  // How late a 1 ms timer of the gateway's event loop fires: how long work arriving there waits for the loop.
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const child = spawn(process.execPath, ['--input-type=module', '-e', REST_CLIENT_SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      URL_: `${gateway.url}/api/sessions/${link.id}/messages/${imageBytes ? 'send-image' : 'send-text'}`,
      KEY: key,
      TOTAL: String(total),
      IMAGE_BYTES: imageBytes ? String(imageBytes) : '',
      RATE: rate ? String(rate) : '',
      CLIENTS: String(REST_CLIENTS),
      CHAT: `${CONTACT}@c.us`,
      RAW_CLIENT: new URL('./raw-http-client.mjs', import.meta.url).href,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err = (err + c).slice(-5000)));
    const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
    loopDelay.disable();
    if (code !== 0) throw new Error(`REST client exited with ${code}: ${err}`);
    const client = JSON.parse(out.trim().split('\n').at(-1));
    // Rates count from the child's first timed send: its start-up and warm-up are not the gateway's time.
    const started = client.startedEpochMs - performance.timeOrigin;
    if (client.statuses['201'] !== total) throw new Error(`REST answers: ${JSON.stringify(client.statuses)}`);
    const decryptedAt = await waitDecrypted(sim, before + total, 120_000);
    const cpu = perMessage(cpuSince(mark, sim, { clientS: round(client.cpuS) }), total);
    const health = await sim.admin('GET', '/health');
    const after = health.stats;
    if (!runner.hasLiveEngine) throw new Error('the session lost its engine during the REST phase');
    return {
      clients: REST_CLIENTS,
      answered: client.statuses,
      total,
      requestsPerSecond: Math.round(total / (client.ms / 1000)),
      decryptedPerSecond: Math.round(total / ((decryptedAt - started) / 1000)),
      // Open-loop: the offered rate, the requests that found no client free, and how long after the last request was
      // due its message was decrypted (the host's backlog).
      ...(rate
        ? {
            offeredPerSecond: rate,
            requestsLate: client.late,
            lastDecryptedAfterLastDueMs: Math.round(decryptedAt - started - ((total - 1) * 1000) / rate),
          }
        : {}),
      decrypted: after.decryptedByContacts - before,
      requestLatencyMs: percentiles(client.latencies),
      gatewayEventLoopDelayMs: {
        p50: round(loopDelay.percentile(50) / 1e6, 1),
        p99: round(loopDelay.percentile(99) / 1e6, 1),
        max: round(loopDelay.max / 1e6, 1),
      },
      cpuS: cpu,
      ...(imageBytes
        ? {
            bytesPerMessage: {
              file: imageBytes,
              requestBody: client.bodyBytes,
              uploadedEncrypted: Math.round(((health.media?.bytes ?? 0) - uploadedBefore) / total),
            },
          }
        : {}),
    };
  } finally {
    loopDelay.disable();
    await killGroup(child, 2000);
  }
}
