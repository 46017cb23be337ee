/**
 * Load check: one linked Baileys socket sending texts to one simulated contact, with the simulator in its own
 * process (`tests/wa-sim/main.ts`, as `npm run sim` runs it). Reports client sends/s and how fast the contact
 * decrypted them. Usage: `npx tsx tests/wa-sim/tools/throughput.ts [total=5000] [inFlight=50]`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import * as baileys from '@whiskeysockets/baileys';
import { quietLibsignal } from '#host/engines/baileys/quiet-libsignal.js';
import { trustSimulatorRootKey } from '#tests/wa-sim/client-trust.js';
import { AdminClient } from '#tests/wa-sim/harness/admin-client.js';
import { unrefBaileysUploadTimeouts } from '#tests/wa-sim/harness/baileys-timers.js';
import { closeClient, linkByQr } from '#tests/wa-sim/harness/client.js';
import { eventually } from '#tests/wa-sim/harness/wait.js';

const total = Number(process.argv[2] ?? 5000);
const inFlight = Number(process.argv[3] ?? 50);
const CONTACT = '15550009001';

// tsx turns source maps on; Baileys builds an Error per query, and mapped stack traces would dominate the profile.
process.setSourceMapsEnabled(false);
quietLibsignal();
unrefBaileysUploadTimeouts();
const child = spawn(process.execPath, ['--import', 'tsx', 'tests/wa-sim/main.ts'], {
  env: { ...process.env, SIM_PORT: '0', SIM_LOG: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
async function run(): Promise<void> {
  const firstLine = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  const endpoints = JSON.parse(firstLine) as { wsUrl: string; adminUrl: string; rootKey: string };
  trustSimulatorRootKey(baileys, endpoints.rootKey);
  const admin = new AdminClient(endpoints.adminUrl);
  const client = await linkByQr({ wsUrl: endpoints.wsUrl, admin }, { phone: '15550008001' });
  await admin.ok(`/contacts/${CONTACT}/config`, { autoDeliver: process.env.NO_RECEIPTS !== '1' });
  const to = `${CONTACT}@s.whatsapp.net`;
  await client.sock.sendMessage(to, { text: 'warm-up' });
  const baseline = await eventually(async () => {
    const view = (await admin.get<{ receivedCount: number }>(`/contacts/${CONTACT}`)).body;
    return view.receivedCount >= 1 && view.receivedCount;
  });

  const cpuBefore = (await admin.get<{ cpuMs: number }>('/health')).body.cpuMs;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) {
        const n = ++next;
        const t = performance.now();
        await client.sock.sendMessage(to, { text: `load ${n}` });
        latencies.push(performance.now() - t);
      }
    }),
  );
  const sendSeconds = (performance.now() - started) / 1000;
  await eventually(
    async () =>
      (await admin.get<{ receivedCount: number }>(`/contacts/${CONTACT}`)).body.receivedCount >=
      baseline + total,
    120_000,
    'the contact to decrypt every message',
  );
  const decryptSeconds = (performance.now() - started) / 1000;
  const health = (await admin.get<{ stats: unknown; cpuMs: number }>('/health')).body;
  const simCpuMsPerMessage = (health.cpuMs - cpuBefore) / total;
  latencies.sort((a, b) => a - b);
  const percentile = (p: number): string => (latencies[Math.floor(latencies.length * p)] ?? 0).toFixed(1);
  process.stdout.write(
    `${JSON.stringify({
      total,
      inFlight,
      sendsPerSecond: Math.round(total / sendSeconds),
      decryptedPerSecond: Math.round(total / decryptSeconds),
      p50ms: percentile(0.5),
      p99ms: percentile(0.99),
      simCpuMsPerMessage: Number(simCpuMsPerMessage.toFixed(3)),
      simCapacityPerCore: Math.round(1000 / simCpuMsPerMessage),
      simulator: health.stats,
    })}\n`,
  );
  await closeClient(client.sock);
}

try {
  await run();
} finally {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
