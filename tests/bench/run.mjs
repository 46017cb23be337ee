// `npm run bench`: runs every benchmark and prints its figures as JSON lines, with the goals beside them.
// `node --expose-gc tests/bench/run.mjs <name>` runs one (the names are the keys of `benches` below).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { baileysInbound } from './baileys-inbound.mjs';
import { baileysLink } from './baileys-link.mjs';
import { baileysRss } from './baileys-rss.mjs';
import { baileysSend, baileysSendImage } from './baileys-send.mjs';
import { baileysSendDynamoDb } from './baileys-send-dynamodb.mjs';
import { chatList } from './chat-list.mjs';
import { chatListAws } from './chat-list-aws.mjs';
import { chatListVerdict } from './chat-seed.mjs';
import { dataExport } from './data-export.mjs';
import { groupReadBaileys } from './group-read-baileys.mjs';
import { historySearch } from './history-search.mjs';
import { httpThroughput } from './http-throughput.mjs';
import { lambdaBundles } from './lambda-bundles.mjs';
import { mcpVsRest } from './mcp-vs-rest.mjs';
import { offlineVsEmbedded } from './offline-vs-embedded.mjs';
import { queueReceive } from './queue-receive.mjs';
import { restartScale } from './restart-scale.mjs';
import { sendSustained } from './send-sustained.mjs';
import { startupTime } from './startup.mjs';
import { stats } from './stats.mjs';
import { median } from './support.mjs';
import { webhookReliability } from './webhook-reliability.mjs';

// The gateways the benchmarks start run on the Node of .nvmrc (on another line SQLite's addon crashes): a run on
// another Node starts itself again under scripts/use-node.sh, which provides that one.
const ROOT = new URL('../..', import.meta.url);
const pinnedMajor = fs.readFileSync(new URL('.nvmrc', ROOT), 'utf8').trim().split('.')[0];
if (process.versions.node.split('.')[0] !== pinnedMajor) {
  const rerun = spawnSync('scripts/use-node.sh', ['node', ...process.execArgv, ...process.argv.slice(1)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.exit(rerun.status ?? 1);
}

const only = process.argv[2];
const benches = {
  // Issue 39 item 6: the statistics routes over 1,000,000 stored messages (SQLite), p99 of each.
  stats: async () => {
    const r = await stats();
    return { ...r, goals: { p99Ms: '< 100' }, met: r.p99Ms < 100 };
  },
  http: async () => {
    const r = await httpThroughput();
    return {
      ...r,
      goals: { ratio: '>= 0.40', p99Ms: '< 10' },
      met: r.ratio >= 0.4 && r.gatewayLatencyMs.p99 < 10,
    };
  },
  // `npm start` → ready on an existing data folder, nothing changed since the last build (issue 35): the median.
  startup: async () => {
    const r = await startupTime();
    return { ...r, goals: { medianMs: '< 600' }, met: r.medianMs < 600 };
  },
  link: async () => {
    const r = await baileysLink();
    return { ...r, goals: { restartAllReadyMs: '< 3000' }, met: r.restart.allReadyMs < 3000 };
  },
  // Issue 35 item 5: 1,000 sessions on one host, all ready within 30 s of a restart, ≤ 2.5 MB RSS per idle session,
  // reads answered meanwhile (p99 < 50 ms).
  'restart-scale': async () => {
    const r = await restartScale();
    const goals = { allReadyMs: '< 30000', rssMbPerIdleSession: '<= 2.5', readP99Ms: '< 50' };
    const metEach = {
      allReadyMs: r.restart.allReadyMs < 30_000,
      rssMbPerIdleSession: r.perIdleSession.rssMb <= 2.5,
      readP99Ms:
        r.restart.readsWhileReconnecting.latencyMs.p99 < 50 && r.restart.readsWhileReconnecting.failed === 0,
    };
    return { ...r, goals, metEach, met: Object.values(metEach).every(Boolean) };
  },
  // Issue 37: GET …/chats over 10,000 chats and GET …/groups/{id} of 1,000 members through the whole path, p99 < 50 ms.
  'chat-list': async () => chatListVerdict(await chatList()),
  // chat-list's figures in the aws mode (serverless offline, the host in-process on the test engine, DynamoDB Local).
  'chat-list-aws': async () => chatListVerdict(await chatListAws()),
  // Issue 37's group read with the real Baileys engine against the simulator (chat-list's is the test engine's).
  'group-read-baileys': async () => {
    const r = await groupReadBaileys();
    return { ...r, goals: { p99Ms: '< 50' }, met: r.groupLatencyMs.p99 < 50 };
  },
  rss: async () => {
    const r = await baileysRss();
    return { ...r, goals: { rssMbPerSession: '<= 3' }, met: r.rssMbPerSession <= 3 };
  },
  send: async () => {
    const r = await baileysSend();
    // Goals: the engine's sustained rate (after the cold run) counted where the contact decrypted, and the REST path
    // (HTTP → row → queue → host → Baileys → contact) at 0.6 of it or more, each request answered within 100 ms (p99)
    // at that load: offered open-loop at 0.6 of the engine's rate, the contact decrypts at that rate and p99 < 100 ms.
    // Each round compares phases run one after the other; the goals are judged on the rounds' medians.
    const rounds = r.rounds.map(({ engine, rest, restPaced }) => ({
      engineDecryptedPerSecond: engine.decryptedPerSecond,
      restToEngine: Math.round((rest.decryptedPerSecond / engine.decryptedPerSecond) * 100) / 100,
      restP99Ms: rest.requestLatencyMs.p99,
      pacedOfferedPerSecond: restPaced.offeredPerSecond,
      pacedKeptUp: Math.round((restPaced.decryptedPerSecond / restPaced.offeredPerSecond) * 100) / 100,
      pacedP50Ms: restPaced.requestLatencyMs.p50,
      pacedP99Ms: restPaced.requestLatencyMs.p99,
    }));
    const medians = Object.fromEntries(
      Object.keys(rounds[0]).map((key) => [key, median(rounds.map((round) => round[key]))]),
    );
    // Each goal judged on its own: the REST goal as the messaging issue sets it (50 clients back to back: the rate
    // against the engine's, and the requests' p99), the open-loop check this bench adds, and the engine's own goal
    // from the bench's first issue (set on a faster machine than the 2-core one the figures of docs/benchmarks.md
    // come from).
    const metEach = {
      restToEngine: medians.restToEngine >= 0.6,
      restP99Ms: medians.restP99Ms < 100,
      pacedKeptUp: medians.pacedKeptUp >= 0.95,
      pacedP99Ms: medians.pacedP99Ms < 100,
      engineDecryptedPerSecond: medians.engineDecryptedPerSecond >= 900,
    };
    return {
      ...r,
      summary: { rounds, medians },
      goals: {
        restToEngine: '>= 0.6',
        restP99Ms: '< 100',
        pacedKeptUp: 'decrypted >= 0.95 of offered',
        pacedP99Ms: '< 100',
        engineDecryptedPerSecond: '>= 900',
      },
      metEach,
      met: Object.values(metEach).every(Boolean),
    };
  },
  // send-image through the whole path; the issue asks for figures (rate, p99, bytes per message), no goal.
  'send-image': () => baileysSendImage(),
  // Sustained REST sends: the rate, CPU and RSS per interval; the per-send cost must stay flat as data grows.
  'send-sustained': async () => {
    const r = await sendSustained();
    return { ...r, goals: { lastToFirstRate: '>= 0.9' }, met: r.lastToFirstRate >= 0.9 };
  },
  // The aws mode's API through serverless-offline against the embedded server; the issue asks for the ratio only.
  'offline-vs-embedded': () => offlineVsEmbedded(),
  // The aws mode's auth store on DynamoDB Local; the issue sets no goal for it (figures for comparison).
  'send-dynamodb': () => baileysSendDynamoDb(),
  inbound: async () => {
    const r = await baileysInbound();
    return { ...r, goals: { sequentialP99Ms: '< 50' }, met: r.sequential.latencyMs.p99 < 50 };
  },
  // History (by chat, by sender) and full-text search over BENCH_HISTORY_ROWS (1,000,000) messages of one session in
  // the embedded store; the search goal is judged on the mix of query kinds, each kind reported beside it.
  history: async () => {
    const r = await historySearch();
    return {
      ...r,
      goals: { historyP99Ms: '< 20', searchP99Ms: '< 50' },
      met: r.historyMs.byChat.p99 < 20 && r.historyMs.byFrom.p99 < 20 && r.searchMs.mixed.p99 < 50,
    };
  },
  // Issue 39 item 1: export and import of 1,000,000 messages, time and peak RSS; the goal is an RSS that does not grow
  // with the row count (tests/bench/data-export.mjs says what the import's whole-body read allows).
  'data-export': async () => {
    const r = await dataExport();
    const peaks = r.results.map((size) => size.exportCappedHeap.peakRssMb);
    const flat = Math.max(...peaks) <= Math.min(...peaks) * 1.25;
    const goals = { exportCappedHeapPeakRss: 'independent of the row count (within 25 %)' };
    return { ...r, goals, met: flat };
  },
  // The embedded queue's empty receive (the host's idle poll) against a COUNT on the same file, FIFO and standard: a
  // select SQLite re-plans on every call shows as a ratio near 8 (tests/bench/queue-receive.mjs).
  'queue-receive': async () => {
    const r = await queueReceive();
    return {
      ...r,
      goals: { receiveToDepth: '< 4' },
      met: r.fifo.receiveToDepth < 4 && r.standard.receiveToDepth < 4,
    };
  },
  // Webhooks end to end in each mode: latency and fan-out rate (goals: embedded inline), and the reliability run.
  webhooks: async () => {
    const r = await webhookReliability();
    const inline = r.modes.inline;
    return {
      ...r,
      goals: { inlineLatencyP50Ms: '< 10', inlineLatencyP99Ms: '< 50', inlineDeliveriesPerSecond: '>= 3000' },
      met:
        Object.values(r.modes).every((m) => m.reliability?.ok) &&
        (!inline?.latencyMs ||
          (inline.latencyMs.p50 < 10 &&
            inline.latencyMs.p99 < 50 &&
            inline.throughput.deliveriesPerSecond >= 3000)),
    };
  },
  // Issue 38: SessionFindOne over /mcp against GET /api/sessions/{id}, same gateway and load: the rate of tool calls at
  // half the REST rate or more, every answer the expected one.
  'mcp-vs-rest': async () => {
    const r = await mcpVsRest();
    return { ...r, goals: { ratio: '>= 0.5', failed: '0' }, met: r.ratio >= 0.5 && r.failed === 0 };
  },
  // Each Lambda as `sls package` builds it: size and cold init (fresh process: import + one invoke). The goals are
  // the API functions' and the MCP function's as deployed (its endpoint off, issue 38); the others, and the MCP
  // function with its endpoint on, are reported beside them.
  'lambda-bundles': async () => {
    const r = await lambdaBundles();
    const api = ['sessions', 'messages', 'webhooks', 'automation', 'auth', 'audit', 'health', 'docs'].map(
      (name) => r.functions[name],
    );
    const ok = (f) => f.bytes < 1_000_000 && f.initMs.median < 150 && f.forbiddenPackages.length === 0;
    const { mcp } = r.functions;
    const mcpOk = mcp.bytes < 1_500_000 && mcp.initMs.median < 250 && mcp.forbiddenPackages.length === 0;
    return {
      ...r,
      goals: { apiBytes: '< 1 MB', apiInitMedianMs: '< 150', mcpBytes: '< 1.5 MB', mcpInitMedianMs: '< 250' },
      met: api.every(ok) && mcpOk,
    };
  },
};
if (only && !(only in benches)) {
  process.stderr.write(`unknown bench "${only}"; one of: ${Object.keys(benches).join(', ')}\n`);
  process.exit(2);
}
let failed = false;
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  try {
    const result = await bench();
    process.stdout.write(`${JSON.stringify({ bench: name, ...result })}\n`);
  } catch (error) {
    failed = true;
    process.stdout.write(`${JSON.stringify({ bench: name, error: String(error?.stack ?? error) })}\n`);
  }
}
// The rss bench runs Baileys in this process, which leaves timers armed: exit explicitly.
process.exit(failed ? 1 : 0);
