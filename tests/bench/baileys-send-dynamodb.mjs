// Send rate of one Baileys session with the aws mode's auth-state store (DynamoDbAuthStateStore behind the
// write-through cache) on DynamoDB Local, measured as baileys-send.mjs measures the SQLite store: the gateway runs
// in this process (the shared bundle loader), the simulator in its own, one session is linked by QR through the
// REST API, then N texts go through the session's runner with `inFlight` outstanding to ONE simulated contact,
// each sender yielding to the event loop after a send, counted where the contact decrypted them.
// DynamoDB requests are counted by a middleware on the bench's own client (per attempt, so SDK retries count), and
// CPU comes from /proc for this process, the simulator and the DynamoDB Local JVM: all three share the machine.
// The gateway composes its auth store itself (SQLite in the embedded mode), so the bench swaps the Baileys engine
// factory's store for the DynamoDB one before the session starts; the adapters come from `npm run build`
// (dist/shared). Baileys leaves a 30 s timer armed after each login: run.mjs ends with process.exit.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import {
  CONTACT,
  cpuMark,
  cpuSince,
  percentiles,
  perMessage,
  simStats,
  TOTAL,
  waitDecrypted,
} from './baileys-send-support.mjs';
import {
  apiClient,
  linkByQr,
  loadGatewayModule,
  readAdminKey,
  round,
  sleep,
  startSimulator,
} from './baileys-support.mjs';
import { cpuSeconds, ROOT, tempDataDir } from './support.mjs';

const IN_FLIGHT = Number(process.env.BENCH_SEND_IN_FLIGHT ?? 50);
const RECEIPTS = process.env.BENCH_SEND_RECEIPTS !== '0';
const TABLE_PREFIX = 'bench_';

/** Imports one module of the adapter bundle that `npm run build` writes to dist/shared. */
async function built(relative) {
  const file = path.join(ROOT, 'dist/shared', relative);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return import(pathToFileURL(file).href);
}

/** A DynamoDB client for DynamoDB Local that counts every request attempt by operation. */
function countingClient(DynamoDBClient, endpoint) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const counts = new Map();
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'deserialize', name: 'benchRequestCounter' },
  );
  const snapshot = () => new Map(counts);
  /** Requests since `before` (a snapshot), by operation and in all. */
  const since = (before) => {
    const byOperation = {};
    let total = 0;
    for (const [name, count] of counts) {
      const delta = count - (before.get(name) ?? 0);
      if (delta > 0) byOperation[name] = delta;
      total += delta;
    }
    return { total, byOperation };
  };
  return { client, snapshot, since };
}

/** The DynamoDB Local JVM: the java child of this process (startDynamoDbLocal spawns it directly). */
function javaChildPid() {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && stat.includes('(java)')) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  throw new Error('DynamoDB Local JVM not found among the children of this process');
}

/**
 * Puts `authState` into the running gateway's Baileys engine factory, which hands its store to each engine it
 * creates. The gateway keeps both private; the bench reaches in, as baileys-send.mjs reaches for the runners.
 */
function useAuthStore(gateway, authState) {
  const factory = gateway.host.deps?.engines;
  if (factory?.kind !== 'baileys' || typeof factory.options?.authState?.readKeys !== 'function') {
    throw new Error(
      'the gateway no longer keeps its Baileys auth store at host.deps.engines.options.authState',
    );
  }
  factory.options.authState = authState;
}

async function enginePhase({ sim, runner, mod, requests, javaPid }) {
  const chatId = `${CONTACT}@c.us`;
  const before = (await simStats(sim)).decryptedByContacts;
  const mark = cpuMark(sim);
  const javaBefore = cpuSeconds(javaPid);
  const requestsBefore = requests.snapshot();
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < TOTAL) {
        const n = ++next;
        const t = performance.now();
        await runner.sendText({ chatId, text: `engine load ${n}`, waMessageId: mod.generateWaMessageId() });
        latencies.push(performance.now() - t);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  const sentAt = performance.now();
  const decryptedAt = await waitDecrypted(sim, before + TOTAL);
  const sent = requests.since(requestsBefore);
  const dynamodbLocalS = cpuSeconds(javaPid) - javaBefore;
  const cpu = cpuSince(mark, sim);
  const after = await simStats(sim);
  return {
    sent: latencies.length,
    sendsPerSecond: Math.round(TOTAL / ((sentAt - started) / 1000)),
    decryptedPerSecond: Math.round(TOTAL / ((decryptedAt - started) / 1000)),
    decrypted: after.decryptedByContacts - before,
    decryptFailures: after.decryptFailures,
    sendLatencyMs: percentiles(latencies),
    dynamodbRequestsPerSend: round(sent.total / TOTAL, 3),
    dynamodbRequests: sent,
    cpuS: {
      ...perMessage(cpu),
      dynamodbLocalS: round(dynamodbLocalS),
      dynamodbLocalUtilisation: round(dynamodbLocalS / cpu.wallS),
    },
  };
}

/** Links a session with its auth state in DynamoDB Local and measures the engine send rate. */
export async function baileysSendDynamoDb() {
  // Imported here, not at the top: run.mjs loads every bench module, and the rss bench measures this process.
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { startDynamoDbLocal } = await import('../../scripts/dynamodb-local.mjs');
  const { CachingAuthStateStore } = await built('adapters/caching/caching-auth-state-store.js');
  const { DynamoDbAuthStateStore } = await built('adapters/dynamodb/dynamodb-auth-state-store.js');
  const { createTables } = await built('adapters/dynamodb/dynamodb-tables.js');
  const mod = await loadGatewayModule();
  const dataDir = tempDataDir();
  let local;
  let requests;
  let sim;
  let gateway;
  let authState;
  try {
    local = await startDynamoDbLocal({ port: 0 });
    const javaPid = javaChildPid();
    requests = countingClient(DynamoDBClient, local.endpoint);
    await createTables(requests.client, TABLE_PREFIX);
    authState = new CachingAuthStateStore(
      new DynamoDbAuthStateStore({ client: requests.client, tablePrefix: TABLE_PREFIX }),
    );
    sim = await startSimulator();
    const env = mod.loadEnv({
      PORT: '0',
      BIND_HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000000',
      ...sim.gatewayEnv,
    });
    const logger = pino({ level: 'warn', base: { service: 'waygate' } }, pino.destination(2));
    gateway = await mod.startGateway({ env, logger });
    useAuthStore(gateway, authState);
    const key = gateway.bootstrap.status === 'created' ? gateway.bootstrap.plaintext : readAdminKey(dataDir);
    const beforeLink = requests.snapshot();
    const link = await linkByQr(apiClient(gateway.url, key), sim, 'bench-send-dynamodb');
    const linkRequests = requests.since(beforeLink);
    const runner = gateway.host.runners.get(link.id);
    if (!runner?.hasLiveEngine) throw new Error(`no live runner for session ${link.id}`);

    await sim.admin('POST', `/contacts/${CONTACT}/config`, { autoDeliver: RECEIPTS, autoRead: false });
    // Warm-up: the first send fetches the contact's devices and pre-key bundle and opens the Signal session.
    const warmed = (await simStats(sim)).decryptedByContacts;
    for (let i = 0; i < 20; i++) {
      await runner.sendText({
        chatId: `${CONTACT}@c.us`,
        text: `warm-up ${i}`,
        waMessageId: mod.generateWaMessageId(),
      });
    }
    await waitDecrypted(sim, warmed + 20);
    await sleep(500);
    const engine = await enginePhase({ sim, runner, mod, requests, javaPid });
    return {
      total: TOTAL,
      inFlight: IN_FLIGHT,
      deliveryReceipts: RECEIPTS,
      authStore: 'dynamodb (DynamoDB Local, in memory) + write-through cache',
      link: { ms: Math.round(link.totalMs), dynamodbRequests: linkRequests },
      engine,
    };
  } finally {
    if (gateway) await Promise.race([gateway.close().catch(() => {}), sleep(15_000)]);
    await authState?.close().catch(() => {});
    await sim?.stop();
    requests?.client.destroy();
    await local?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
