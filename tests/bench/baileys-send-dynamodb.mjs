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
import { enginePhase, warmUp, withLinkedGateway } from './baileys-send.mjs';
import { IN_FLIGHT, RECEIPTS, TOTAL } from './baileys-send-support.mjs';
import { round } from './baileys-support.mjs';
import { built, cpuSeconds } from './support.mjs';

const TABLE_PREFIX = 'bench_';

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

/** The shared engine phase, with the DynamoDB requests it made and the DynamoDB Local JVM's CPU beside it. */
async function dynamoDbEnginePhase(ctx, requests, javaPid) {
  const javaBefore = cpuSeconds(javaPid);
  const requestsBefore = requests.snapshot();
  const engine = await enginePhase(ctx, true);
  const sent = requests.since(requestsBefore);
  const dynamodbLocalS = cpuSeconds(javaPid) - javaBefore;
  return {
    ...engine,
    dynamodbRequestsPerSend: round(sent.total / TOTAL, 3),
    dynamodbRequests: sent,
    cpuS: {
      ...engine.cpuS,
      dynamodbLocalS: round(dynamodbLocalS),
      dynamodbLocalUtilisation: round(dynamodbLocalS / engine.cpuS.wallS),
    },
  };
}

/** Links a session with its auth state in DynamoDB Local and measures the engine send rate. */
export async function baileysSendDynamoDb() {
  // Imported here, not at the top: run.mjs loads every bench module, and the rss bench measures this process.
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { startDynamoDbLocal } = await import('#scripts/dynamodb-local.mjs');
  const { CachingAuthStateStore } = await built('adapters/caching/caching-auth-state-store.js');
  const { DynamoDbAuthStateStore } = await built('adapters/dynamodb/dynamodb-auth-state-store.js');
  const { createTables } = await built('adapters/dynamodb/dynamodb-tables.js');
  let local;
  let requests;
  let authState;
  try {
    local = await startDynamoDbLocal({ port: 0 });
    const javaPid = javaChildPid();
    requests = countingClient(DynamoDBClient, local.endpoint);
    await createTables(requests.client, TABLE_PREFIX);
    authState = new CachingAuthStateStore(
      new DynamoDbAuthStateStore({ client: requests.client, tablePrefix: TABLE_PREFIX }),
    );
    let beforeLink;
    return await withLinkedGateway(
      'bench-send-dynamodb',
      {},
      async (ctx) => {
        const link = { ms: Math.round(ctx.link.totalMs), dynamodbRequests: requests.since(beforeLink) };
        await warmUp(ctx);
        const engine = await dynamoDbEnginePhase(ctx, requests, javaPid);
        return {
          total: TOTAL,
          inFlight: IN_FLIGHT,
          deliveryReceipts: RECEIPTS,
          authStore: 'dynamodb (DynamoDB Local, in memory) + write-through cache',
          link,
          engine,
        };
      },
      {
        beforeLink: (gateway) => {
          useAuthStore(gateway, authState);
          beforeLink = requests.snapshot();
        },
      },
    );
  } finally {
    await authState?.close().catch(() => {});
    requests?.client.destroy();
    await local?.stop();
  }
}
