// Statistics routes' use cases over BENCH_STATS_ROWS (default 1,000,000) stored messages in the embedded data
// store (SQLite): p50/p99 of the overview, the period statistics (24h, 7d, 30d) and one session's statistics,
// answered from the rollups of migration 0017_message_stats, never from the messages; and the price of its insert
// trigger on the insert path (insertRowsPerSecond: with and without it, and the ratio). The rows are written with
// plain SQL in large transactions (the insert trigger queues each, as for every insert, and the first read folds the
// queue into the rollups: foldSeconds), spread over the last 30 days across 20 sessions and 2,000 chats (Zipf), 40 %
// outgoing, 1 % of those failed.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { percentiles, random } from './history-search.mjs';
import { built, tempDataDir } from './support.mjs';

const ROWS = Number(process.env.BENCH_STATS_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_STATS_RUNS ?? 300);
const SESSIONS = 20;
const TYPES = ['text', 'text', 'text', 'text', 'image', 'voice', 'document', 'sticker'];

function fill(file, sessionIds) {
  const rnd = random(42);
  const chats = Array.from({ length: 2000 }, (_, i) => `49151${String(1_000_000 + i)}@c.us`);
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO messages (id, session_id, wa_message_id, chat_id, from_jid, to_jid, type, direction, timestamp,
       status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const now = Math.floor(Date.now() / 1000);
  const span = 30 * 86_400;
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const sessionId = sessionIds[Math.floor(rnd() ** 2 * sessionIds.length)];
      const chatId = chats[Math.floor(rnd() ** 3 * chats.length)];
      const outgoing = rnd() < 0.4;
      const timestamp = now - span + Math.floor((i / ROWS) * span);
      insert.run(
        randomUUID(),
        sessionId,
        `3EB0${i.toString(16).toUpperCase().padStart(18, '0')}`,
        chatId,
        outgoing ? '4915000000000@c.us' : chatId,
        outgoing ? chatId : '4915000000000@c.us',
        TYPES[Math.floor(rnd() * TYPES.length)],
        outgoing ? 'outgoing' : 'incoming',
        timestamp,
        outgoing && rnd() < 0.01 ? 'failed' : 'sent',
        new Date(timestamp * 1000).toISOString(),
      );
    }
  });
  for (let i = 0; i < ROWS; i += 50_000) batch(i, Math.min(ROWS, i + 50_000));
  db.close();
}

const INSERTS = Number(process.env.BENCH_STATS_INSERTS ?? 20_000);

/**
 * The hot path's price: messages stored one per transaction (as a send stores its row) into a fresh data store with
 * the statistics triggers, and into one without them (dropped), interleaved in rounds; rows per second of each.
 */
async function insertCost(openSqliteDataStore, session) {
  const files = [];
  const rates = { withStats: [], withoutStats: [] };
  try {
    for (let round = 0; round < 5; round++) {
      for (const variant of ['withStats', 'withoutStats']) {
        const dir = tempDataDir();
        files.push(dir);
        const file = path.join(dir, 'data.sqlite');
        const data = openSqliteDataStore(file);
        await data.sessions.create(session);
        await data.close();
        const db = new Database(file);
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        if (variant === 'withoutStats') {
          for (const t of ['message_stats_insert', 'message_stats_failed']) db.exec(`DROP TRIGGER ${t}`);
        }
        const insert = db.prepare(
          `INSERT INTO messages (id, session_id, wa_message_id, chat_id, from_jid, to_jid, type, direction,
             timestamp, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'text', 'outgoing', ?, 'pending', ?)`,
        );
        const now = Math.floor(Date.now() / 1000);
        const started = performance.now();
        for (let i = 0; i < INSERTS; i++) {
          const chat = `49151${String(1_000_000 + (i % 500))}@c.us`;
          insert.run(
            randomUUID(),
            session.id,
            `3EB0${i}`,
            chat,
            'me@c.us',
            chat,
            now,
            new Date().toISOString(),
          );
        }
        rates[variant].push(INSERTS / ((performance.now() - started) / 1000));
        db.close();
      }
    }
  } finally {
    for (const dir of files) fs.rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const withStats = Math.round(median(rates.withStats));
  const withoutStats = Math.round(median(rates.withoutStats));
  return { withStats, withoutStats, ratio: Math.round((withStats / withoutStats) * 100) / 100 };
}

async function measure(call, runs = RUNS) {
  for (let i = 0; i < 5; i++) await call(i); // warm the statements and the page cache
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

export async function stats() {
  const { openSqliteDataStore } = await built('adapters/sqlite/sqlite-stores.js');
  const { statsOverview } = await built('use-cases/stats/stats-overview.js');
  const { messageStats } = await built('use-cases/stats/message-stats.js');
  const { sessionMessageStats } = await built('use-cases/stats/session-message-stats.js');
  const dir = tempDataDir();
  const file = path.join(dir, 'data.sqlite');
  try {
    const sessionIds = Array.from({ length: SESSIONS }, () => randomUUID());
    const created = new Date().toISOString();
    const sessionRow = (id, name) => ({
      ...{ id, name, status: 'ready', phone: null, pushName: null, config: {} },
      ...{ proxyUrl: null, proxyType: null, connectedAt: null, lastActiveAt: null, lastError: null },
      ...{ nodeId: null, nodeUrl: null, claimedAt: null, leaseExpiresAt: null },
      ...{ createdAt: created, updatedAt: created },
    });
    const insertRowsPerSecond = await insertCost(
      openSqliteDataStore,
      sessionRow(randomUUID(), 'insert-bench'),
    );
    let data = openSqliteDataStore(file);
    for (const [i, id] of sessionIds.entries()) {
      await data.sessions.create(sessionRow(id, `bench-${i}`));
    }
    await data.close();
    const filling = performance.now();
    fill(file, sessionIds);
    const fillSeconds = Math.round((performance.now() - filling) / 100) / 10;
    data = openSqliteDataStore(file);
    // The rows wait in message_stats_pending; the first read folds them all into the rollups (in batches).
    const folding = performance.now();
    await data.messageStats.totals([]);
    const foldSeconds = Math.round((performance.now() - folding) / 100) / 10;
    const raw = new Database(file, { readonly: true });
    const counters = raw
      .prepare(
        `SELECT (SELECT count(*) FROM message_stats_hours) AS hours, (SELECT count(*) FROM message_stats_days) AS days,
           (SELECT count(*) FROM message_stats_window_chats) AS windowChats`,
      )
      .get();
    raw.close();
    const deps = { data, clock: { now: () => new Date() } };
    const admin = {
      key: { id: 'k', name: 'bench', role: 'admin', allowedSessions: null, allowedChats: null },
    };
    const ms = {
      overview: await measure(() => statsOverview(deps, admin)),
      messages24h: await measure(() => messageStats(deps, admin, '24h')),
      messages7d: await measure(() => messageStats(deps, admin, '7d')),
      messages30d: await measure(() => messageStats(deps, admin, '30d')),
      session: await measure((i) => sessionMessageStats(deps, admin, sessionIds[i % SESSIONS])),
    };
    await data.close();
    const p99Ms = Math.max(...Object.values(ms).map((m) => m.p99));
    return {
      rows: ROWS,
      sessions: SESSIONS,
      fillSeconds,
      foldSeconds,
      counters,
      ms,
      p99Ms,
      insertRowsPerSecond,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
