// Authenticated GET /api/sessions/{id} through serverless-offline (the aws mode on this machine: API Gateway
// emulation, the sessions Lambda in a worker, its session read from DynamoDB Local, the key check against DynamoDB
// Local behind the Lambda's key cache) against the embedded server (one process, SQLite), same load tool and
// connections, same run. The embedded server runs first and again last, so drift of the machine shows in the
// figures. serverless-offline is a development tool, not API Gateway: the ratio is what a developer sees locally,
// not a prediction of a deployment's throughput.
import fs from 'node:fs';
import { generateAdminKey, startOffline } from '#scripts/offline-stack.mjs';
import { createBenchSession, freePort, load, startEmbeddedGateway, stopProcess } from './support.mjs';

const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// serverless-offline runs one Lambda instance (a worker thread that loads the bundle) per concurrent request, as
// Lambda does: the warm-up must last until all CONNECTIONS instances exist (about 6 s for 10 on 2 cores).
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 20);

/** Warm-up (JIT, caches, Lambda instances) then the timed run. */
async function measure(url, key) {
  const headers = { 'x-api-key': key };
  const warmUp = await load(url, { connections: CONNECTIONS, duration: WARMUP_S, headers });
  const run = await load(url, { connections: CONNECTIONS, duration: DURATION, headers });
  return {
    reqPerSec: Math.round(run.requests.average),
    latencyMs: { p50: run.latency.p50, p99: run.latency.p99, max: run.latency.max },
    errors: run.errors + run.non2xx,
    warmUp: { requests: warmUp.requests.total, errors: warmUp.errors + warmUp.non2xx },
  };
}

async function embeddedRun() {
  const gateway = await startEmbeddedGateway();
  try {
    return await measure((await createBenchSession(gateway.base, gateway.key)).url, gateway.key);
  } finally {
    await stopProcess(gateway.child);
    fs.rmSync(gateway.dataDir, { recursive: true, force: true });
  }
}

async function offlineRun() {
  const key = generateAdminKey();
  const stack = await startOffline({
    port: await freePort(),
    tablePrefix: `bench-${process.pid}-`,
    bootstrapAdminKey: key,
    env: { ENGINE: 'test', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000' },
  });
  try {
    return await measure((await createBenchSession(stack.url, key)).url, key);
  } finally {
    await stack.stop();
  }
}

export async function offlineVsEmbedded() {
  const embeddedBefore = await embeddedRun();
  const offline = await offlineRun();
  const embeddedAfter = await embeddedRun();
  const embeddedMean = (embeddedBefore.reqPerSec + embeddedAfter.reqPerSec) / 2;
  return {
    connections: CONNECTIONS,
    durationS: DURATION,
    embeddedBefore,
    offline,
    embeddedAfter,
    ratio: Number((offline.reqPerSec / embeddedMean).toFixed(3)),
  };
}
