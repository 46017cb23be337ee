// chat-list.mjs's figures in the aws mode: GET …/chats over a session with BENCH_CHATS (default 10,000) chats and
// GET …/groups/{id} of a BENCH_GROUP_MEMBERS (default 1,000) member group, through serverless offline (API Gateway
// emulation → the chats or groups Lambda in a worker) → DynamoDB Local (the chat list, gsi1) or the owning host (the
// group: the function finds the host through the tables and calls its RPC → the test engine's group port).
// The deployment is the api-offline test project's: the emulators (DynamoDB Local, the SQS emulator, s3rver) as its
// global setup starts them (tests/helpers/aws-emulators.mjs), then tests/helpers/offline-test-gateway.ts with
// WAYGATE_TEST_FUNCTIONS=offline: fresh tables, queues and bucket, serverless offline serving serverless.yml's
// functions as a child, and the host in this process with a TestNetwork, which is what lets the bench seed chats
// as chat-list.mjs does (one received message each, through the host into the DynamoDB chat store).
// Same requests as chat-list.mjs: 20 warm-ups, BENCH_CHAT_RUNS (default 200) pages of 1,000 at offsets 0, 1,000 …,
// as many of 50, a quarter as many last pages; the group 20 warm-ups and as many reads, one after the other. The
// host and the bench client share this process; serverless offline and DynamoDB Local are processes of their own.

import { tsImport } from 'tsx/esm/api';
import { apiClient, sleep, stats, waitForStatus } from './baileys-support.mjs';
import { benchGroup, benchInbound } from './chat-seed.mjs';

const CHATS = Number(process.env.BENCH_CHATS ?? 10_000);
const RUNS = Number(process.env.BENCH_CHAT_RUNS ?? 200);
const OWN = '15550007777';
const GROUP_MEMBERS = Number(process.env.BENCH_GROUP_MEMBERS ?? 1_000);
const GROUP = '120363000000000777@g.us';
/** Received messages handed to the host at once while seeding. */
const SEED_BATCH = 50;

/**
 * What the api-offline project's setup file sets (offline-api-setup.ts): the dummy credentials both sides present
 * (DynamoDB Local keeps one database per access key) and serverless offline as the functions' runner.
 */
const ENV = {
  WAYGATE_API_TARGET: 'offline',
  WAYGATE_TEST_FUNCTIONS: 'offline',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_SESSION_TOKEN: '',
  AWS_REGION: 'us-east-1',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** Where the emulators answer, set by acquireEmulators: a later acquire in this process would take them as running. */
const ENDPOINTS = ['WAYGATE_TEST_DYNAMODB_ENDPOINT', 'WAYGATE_TEST_SQS_ENDPOINT', 'WAYGATE_TEST_S3_ENDPOINT'];

/** Sets ENV for the bench and answers a function that puts the previous values back (run.mjs runs other benches). */
function setEnv() {
  const names = [...Object.keys(ENV), ...ENDPOINTS];
  const before = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  Object.assign(process.env, ENV);
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** Times `count` requests of `route` (a function of the run's index), one after the other; answers ms each. */
async function timed(api, count, route, check = () => true) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await api('GET', route(i));
    times.push(performance.now() - started);
    if (res.status !== 200 || !check(res.body))
      throw new Error(`GET ${route(i)}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  }
  return times;
}

export async function chatListAws() {
  const restoreEnv = setEnv();
  const { acquireEmulators, releaseEmulators } = await import('../helpers/aws-emulators.mjs');
  let gw;
  try {
    await acquireEmulators();
    // The harness is TypeScript (jest runs it through its transform); tsx loads it here, with the product code.
    const { startOfflineTestGateway } = await tsImport('../helpers/offline-test-gateway.ts', import.meta.url);
    const startStarted = performance.now();
    gw = await startOfflineTestGateway();
    const startMs = performance.now() - startStarted;
    // The bench's own client, not the harness's: that one checks every answer against the OpenAPI document, which
    // would put a validation of 1,000 chats into each figure.
    const api = apiClient(gw.url, gw.adminKey);
    const created = await api('POST', '/api/sessions', { name: 'bench-chats-aws' });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    const sessionId = created.body.id;
    gw.network.storeCredentials(sessionId, { phone: OWN, pushName: 'Bench' });
    const started = await api('POST', `/api/sessions/${sessionId}/start`);
    if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
    await waitForStatus(api, sessionId, 'ready', 60_000, 50);

    const seedStarted = performance.now();
    const now = Math.floor(Date.now() / 1000);
    for (let offset = 0; offset < CHATS; offset += SEED_BATCH) {
      const batch = [];
      for (let i = offset; i < Math.min(offset + SEED_BATCH, CHATS); i++) {
        batch.push(gw.network.deliverInbound(sessionId, benchInbound(i, CHATS, OWN, now)));
      }
      await Promise.all(batch);
    }
    // The chat list is written behind the messages (and gsi1 is eventually consistent): wait for the last chat.
    for (;;) {
      const last = await api('GET', `/api/sessions/${sessionId}/chats?limit=1&offset=${CHATS - 1}`);
      if (Array.isArray(last.body) && last.body.length === 1) break;
      await sleep(200);
    }
    const seedMs = performance.now() - seedStarted;

    const pages = Math.max(1, Math.floor(CHATS / 1000));
    const chats = `/api/sessions/${sessionId}/chats`;
    const pageOf = (size) => (body) => Array.isArray(body) && body.length === size;
    await timed(api, 20, () => chats); // warm-up
    const fullPage = await timed(api, RUNS, (i) => `${chats}?offset=${(i % pages) * 1000}`, pageOf(1000));
    const firstFifty = await timed(api, RUNS, () => `${chats}?limit=50`, pageOf(50));
    const lastPage = await timed(
      api,
      Math.ceil(RUNS / 4),
      () => `${chats}?offset=${CHATS - 1000}`,
      pageOf(1000),
    );
    gw.network.groups.put(benchGroup(GROUP, OWN, now, GROUP_MEMBERS));
    const groupPath = `/api/sessions/${sessionId}/groups/${encodeURIComponent(GROUP)}`;
    const allMembers = (body) => body?.participants?.length === GROUP_MEMBERS;
    await timed(api, 20, () => groupPath, allMembers); // warm-up
    const group = await timed(api, RUNS, () => groupPath, allMembers);
    return {
      mode: 'aws (serverless offline, in-process host, DynamoDB Local)',
      stackStartMs: Math.round(startMs),
      chats: CHATS,
      seed: { messages: CHATS, ms: Math.round(seedMs) },
      pageOf1000LatencyMs: stats(fullPage),
      lastPageOf1000LatencyMs: stats(lastPage),
      pageOf50LatencyMs: stats(firstFifty),
      groupMembers: GROUP_MEMBERS,
      groupLatencyMs: stats(group),
    };
  } finally {
    await gw?.close();
    await releaseEmulators();
    restoreEnv();
  }
}
