// History and full-text search over BENCH_HISTORY_ROWS (default 1,000,000) stored messages of one session in the
// embedded data store (SQLite): p50/p99 of the real adapter's `list` by chat and by sender (`from`), and of its
// `search`. The rows are written with plain SQL in large transactions (the schema's triggers fill the search index
// as they do for every insert), then the adapter is opened on the file and measured. Bodies draw words from a
// Zipf-distributed vocabulary, so queries meet common and rare words; each query kind is reported on its own.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { built, tempDataDir } from './support.mjs';

const ROWS = Number(process.env.BENCH_HISTORY_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 400);
const VOCABULARY = 30_000;
const PAGE = { limit: 50, offset: 0 };
const ME = '4915000000000@c.us';

/** A seeded generator (mulberry32), so every run stores the same messages and asks the same questions. */
export function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of 1–4 syllables, plus a few accented and non-Latin ones among the common words. */
function vocabulary(rnd) {
  const syllables = [
    'ka',
    'to',
    'ri',
    'me',
    'lo',
    'sa',
    'ne',
    'vi',
    'du',
    'pa',
    'mo',
    'ti',
    'ra',
    'ge',
    'lu',
    'fe',
  ];
  const words = ['café', 'привет', 'straße', 'über', 'niño', 'καλημέρα'];
  const seen = new Set(words);
  while (words.length < VOCABULARY) {
    let word = '';
    for (let n = 1 + Math.floor(rnd() * 4); n > 0; n--)
      word += syllables[Math.floor(rnd() * syllables.length)];
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  // Shuffled, so the accented words land at random ranks.
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [words[i], words[j]] = [words[j], words[i]];
  }
  return words;
}

/** Picks an index 0…n-1 with probability ∝ 1/(i+1) (Zipf), by bisecting the cumulative weights. */
function zipf(n, rnd) {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 1);
  return () => {
    const target = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** 400 direct chats and 50 groups (activity Zipf-distributed) with 500 contacts; 40 % of messages are our own. */
function fill(file, sessionId, words) {
  const rnd = random(42);
  const word = zipf(words.length, rnd);
  const contacts = Array.from({ length: 500 }, (_, i) => `49151${String(1_000_000 + i)}@c.us`);
  const chats = [
    ...contacts.slice(0, 400),
    ...Array.from({ length: 50 }, (_, i) => `1203630${String(10_000_000 + i)}@g.us`),
  ];
  const chat = zipf(chats.length, rnd);
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO messages (id, session_id, wa_message_id, chat_id, author, from_jid, to_jid, body, type, direction,
       timestamp, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'text', ?, ?, 'sent', ?)`,
  );
  const t0 = 1_700_000_000;
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const chatId = chats[chat()];
      const group = chatId.endsWith('@g.us');
      const outgoing = rnd() < 0.4;
      const author = group && !outgoing ? contacts[Math.floor(rnd() * contacts.length)] : null;
      const body = Array.from({ length: 3 + Math.floor(rnd() * 18) }, () => words[word()]).join(' ');
      const timestamp = t0 + i * 30;
      insert.run(
        randomUUID(),
        sessionId,
        `3EB0${i.toString(16).toUpperCase().padStart(18, '0')}`,
        chatId,
        author,
        outgoing ? ME : chatId,
        outgoing ? chatId : ME,
        body,
        outgoing ? 'outgoing' : 'incoming',
        timestamp,
        new Date(timestamp * 1000).toISOString(),
      );
    }
  });
  for (let i = 0; i < ROWS; i += 50_000) batch(i, Math.min(ROWS, i + 50_000));
  const sizes = db
    .prepare(
      `SELECT sum(pgsize) AS bytes, sum(CASE WHEN name LIKE 'messages_fts%' THEN pgsize ELSE 0 END) AS fts
       FROM dbstat`,
    )
    .get();
  db.close();
  return { contacts, chats, sizes };
}

export function percentiles(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2));
  return { runs: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1) };
}

async function measure(make, runs = RUNS) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const call = make(i);
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

export async function historySearch() {
  const { openSqliteDataStore } = await built('adapters/sqlite/sqlite-stores.js');
  const { parseSearchQuery, SEARCH_MAX_MATCHES } = await built('domain/message-search.js');
  const dir = tempDataDir();
  const file = path.join(dir, 'data.sqlite');
  try {
    const words = vocabulary(random(7));
    const sessionId = randomUUID();
    const created = new Date().toISOString();
    let store = openSqliteDataStore(file);
    await store.sessions.create({
      ...{ id: sessionId, name: 'bench', status: 'created', phone: null, pushName: null, config: {} },
      ...{ proxyUrl: null, proxyType: null, connectedAt: null, lastActiveAt: null, lastError: null },
      ...{ nodeId: null, nodeUrl: null, claimedAt: null, leaseExpiresAt: null },
      ...{ createdAt: created, updatedAt: created },
    });
    await store.close();
    const filling = performance.now();
    const { contacts, chats, sizes } = fill(file, sessionId, words);
    const fillSeconds = Math.round((performance.now() - filling) / 100) / 10;
    store = openSqliteDataStore(file);
    const messages = store.messages;
    const rnd = random(99);
    const pick = (list) => list[Math.floor(rnd() * list.length)];
    // A word by rank drawn log-uniformly: as many questions about the 10 most common words as about ranks 10–100.
    const anyWord = () =>
      words[Math.min(words.length - 1, Math.floor(Math.exp(rnd() * Math.log(words.length))))];
    const search =
      (q, chatId, page = PAGE) =>
      () =>
        messages.search(
          {
            sessionId,
            ...(chatId ? { chatId } : {}),
            terms: parseSearchQuery(q),
            maxMatches: SEARCH_MAX_MATCHES,
          },
          page,
        );
    const queries = {
      oneWord: () => search(anyWord()),
      twoWords: () => search(`${anyWord()} ${anyWord()}`),
      inChat: () => search(anyWord(), pick(chats)),
      mostCommonWord: () => search(words[0]),
      lastPage: () => search(anyWord(), undefined, { limit: 50, offset: SEARCH_MAX_MATCHES - 50 }),
    };
    // Warm the page cache as a running gateway would have it.
    for (let i = 0; i < 50; i++) await messages.list({ sessionId, chatId: pick(chats) }, PAGE);
    const history = {
      byChat: await measure(() => () => messages.list({ sessionId, chatId: pick(chats) }, PAGE)),
      byFrom: await measure(() => () => messages.list({ sessionId, from: pick(contacts) }, PAGE)),
      byFromOwnNumber: await measure(() => () => messages.list({ sessionId, from: ME }, PAGE), 50),
      byChatDeepOffset: await measure(
        () => () => messages.list({ sessionId, chatId: chats[0] }, { limit: 50, offset: 5000 }),
        50,
      ),
    };
    const searchKinds = {};
    for (const [kind, make] of Object.entries(queries)) searchKinds[kind] = await measure(make);
    const mixed = ['oneWord', 'twoWords', 'inChat'];
    const all = await measure((i) => queries[mixed[i % mixed.length]](), RUNS * 2);
    await store.close();
    return {
      rows: ROWS,
      fillSeconds,
      databaseMb: Math.round(sizes.bytes / 1e6),
      searchIndexMb: Math.round(sizes.fts / 1e6),
      historyMs: history,
      searchMs: { mixed: all, ...searchKinds },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
