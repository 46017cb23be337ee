// GET …/chats over a session with BENCH_CHATS (default 10,000) chats, through the whole path of the embedded gateway
// (HTTP → route → the chat store its host keeps, SQLite): the chats come into being as the host builds them, from
// one received message each through the test engine (receive → stored → chat list), then pages are asked over HTTP:
// the default page (1,000 chats) at random offsets and the first 50. Then GET …/groups/{id} of a group of
// BENCH_GROUP_MEMBERS (default 1,000) members (HTTP → route → the owning host → the engine's group port). p50/p99 per
// kind. The gateway runs in this process (its test engine's network is an in-process object), so the client's own
// work is inside the figures.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiClient, bundleAndImport, sleep, stats, waitForStatus } from './baileys-support.mjs';
import { benchGroup, benchInbound } from './chat-seed.mjs';
import { ROOT } from './support.mjs';

const CHATS = Number(process.env.BENCH_CHATS ?? 10_000);
const RUNS = Number(process.env.BENCH_CHAT_RUNS ?? 200);
const OWN = '15550007777';
const GROUP_MEMBERS = Number(process.env.BENCH_GROUP_MEMBERS ?? 1_000);
const GROUP = '120363000000000777@g.us';

async function loadModules() {
  return bundleAndImport('bench-chat-gateway', {
    stdin: {
      contents: [
        "export { startGateway } from './embedded/gateway.ts';",
        "export { loadEnv } from './shared/config/env.ts';",
        "export { TestNetwork } from './host/engines/test/test-network.ts';",
      ].join('\n'),
      resolveDir: ROOT,
      sourcefile: 'bench-chat-list-entry.ts',
      loader: 'ts',
    },
  });
}

/** Times `count` requests of `route` (a function of the run's index), one after the other; answers ms each. */
async function timed(api, count, route) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await api('GET', route(i));
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`GET ${route(i)}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return times;
}

export async function chatList() {
  spawnSync('node', ['scripts/build.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const { startGateway, loadEnv, TestNetwork } = await loadModules();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-bench-chats-'));
  const network = new TestNetwork();
  const gateway = await startGateway({
    env: loadEnv({
      DATA_DIR: dataDir,
      PORT: '0',
      BIND_HOST: '127.0.0.1',
      ENGINE: 'test',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000000',
    }),
    testNetwork: network,
  });
  try {
    const api = apiClient(gateway.url, gateway.bootstrap.plaintext);
    const created = await api('POST', '/api/sessions', { name: 'bench-chats' });
    const sessionId = created.body.id;
    network.storeCredentials(sessionId, { phone: OWN, pushName: 'Bench' });
    await api('POST', `/api/sessions/${sessionId}/start`);
    await waitForStatus(api, sessionId, 'ready');

    const seedStarted = performance.now();
    const now = Math.floor(Date.now() / 1000);
    for (let offset = 0; offset < CHATS; offset += 500) {
      const batch = [];
      for (let i = offset; i < Math.min(offset + 500, CHATS); i++) {
        batch.push(network.deliverInbound(sessionId, benchInbound(i, CHATS, OWN, now)));
      }
      await Promise.all(batch);
    }
    // The chat list is written behind the messages: wait until the last chat is in.
    for (;;) {
      const last = await api('GET', `/api/sessions/${sessionId}/chats?limit=1&offset=${CHATS - 1}`);
      if (Array.isArray(last.body) && last.body.length === 1) break;
      await sleep(50);
    }
    const seedMs = performance.now() - seedStarted;

    const pages = Math.max(1, Math.floor(CHATS / 1000));
    await timed(api, 20, () => `/api/sessions/${sessionId}/chats`); // warm-up
    const fullPage = await timed(
      api,
      RUNS,
      (i) => `/api/sessions/${sessionId}/chats?offset=${(i % pages) * 1000}`,
    );
    const firstFifty = await timed(api, RUNS, () => `/api/sessions/${sessionId}/chats?limit=50`);
    const lastPage = await timed(
      api,
      Math.ceil(RUNS / 4),
      () => `/api/sessions/${sessionId}/chats?offset=${CHATS - 1000}`,
    );
    network.groups.put(benchGroup(GROUP, OWN, now, GROUP_MEMBERS));
    const groupPath = `/api/sessions/${sessionId}/groups/${encodeURIComponent(GROUP)}`;
    await timed(api, 20, () => groupPath); // warm-up
    const group = await timed(api, RUNS, () => groupPath);
    return {
      bench: 'chat-list',
      chats: CHATS,
      seed: { messages: CHATS, ms: Math.round(seedMs) },
      pageOf1000LatencyMs: stats(fullPage),
      lastPageOf1000LatencyMs: stats(lastPage),
      pageOf50LatencyMs: stats(firstFifty),
      groupMembers: GROUP_MEMBERS,
      groupLatencyMs: stats(group),
    };
  } finally {
    await gateway.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
