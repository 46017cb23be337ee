/**
 * The SQLite top-chat windows (migration 0017_message_stats, sqlite-stats-windows.ts): whatever day a read asks for,
 * and however far the window must move (a day's chat-days subtracted, or counted again from the chat-days after a
 * long pause), the counts equal a count of the stored messages over the window's days; a message stored after a
 * move lands in every window whose range holds its day. Days are moved forward by asking for later `today`s. And a
 * send turning failed counts once, whether its message was folded into the rollups already or still pending.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import { STATS_KEPT_DAYS, TOP_CHAT_WINDOW_DAYS } from '#shared/domain/message-stats.js';
import type { DataStore } from '#shared/ports/stores.port.js';

const DAY = 86_400;
const today = Math.floor(Date.now() / 1000 / DAY);

describe('SQLite top-chat windows', () => {
  let dir: string;
  let file: string;
  let data: DataStore;
  const sessionId = randomUUID();
  const stored: { chatId: string; day: number }[] = [];

  /** Stores a message with plain SQL (as the message store's insert does, the triggers firing); answers its id. */
  function store(chatId: string, day: number, direction = 'incoming'): string {
    const db = new Database(file);
    const id = randomUUID();
    db.prepare(
      `INSERT INTO messages (id, session_id, wa_message_id, chat_id, from_jid, to_jid, type, direction, timestamp,
         status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'text', ?, ?, 'pending', ?)`,
    ).run(
      id,
      sessionId,
      id,
      chatId,
      chatId,
      'me@c.us',
      direction,
      day * DAY + 3600,
      new Date().toISOString(),
    );
    db.close();
    stored.push({ chatId, day });
    return id;
  }

  function fail(id: string): void {
    const db = new Database(file);
    db.prepare("UPDATE messages SET status = 'failed' WHERE id = ?").run(id);
    db.close();
  }

  /** What a window of `days` ending `asOf` holds, counted from the stored messages (kept days only). */
  function expected(days: number, asOf: number): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const m of stored) {
      if (m.day > asOf - days && m.day >= today - STATS_KEPT_DAYS)
        counts[m.chatId] = (counts[m.chatId] ?? 0) + 1;
    }
    return counts;
  }

  async function counted(days: (typeof TOP_CHAT_WINDOW_DAYS)[number], asOf: number) {
    const chats = await data.messageStats.topChats([sessionId], { days, today: asOf }, 1000);
    return Object.fromEntries(chats.map((c) => [c.chatId, c.count]));
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-stats-'));
    file = path.join(dir, 'data.sqlite');
    data = openSqliteDataStore(file);
    const now = new Date().toISOString();
    await data.sessions.create({
      ...{ id: sessionId, name: 'stats', status: 'ready', phone: null, pushName: null, config: {} },
      ...{ proxyUrl: null, proxyType: null, connectedAt: null, lastActiveAt: null, lastError: null },
      ...{ nodeId: null, nodeUrl: null, claimedAt: null, leaseExpiresAt: null },
      ...{ createdAt: now, updatedAt: now },
    });
    for (let back = 0; back <= 40; back++) {
      for (let i = 0; i <= back % 3; i++) store('a@c.us', today - back);
      if (back % 2 === 0) store(`b${back % 8}@c.us`, today - back);
    }
  });
  afterAll(async () => {
    await data.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts each window over its days as the days go by, late messages included', async () => {
    for (const shift of [0, 1, -1, 3, 10, 45]) {
      if (shift === -1) {
        store('late@c.us', today);
        continue;
      }
      for (const days of TOP_CHAT_WINDOW_DAYS) {
        expect([days, shift, await counted(days, today + shift)]).toEqual([
          days,
          shift,
          expected(days, today + shift),
        ]);
      }
    }
    expect(await counted(30, today + 45)).toEqual({});
  });

  it('counts a send that fails once, whether it failed before or after its message was folded', async () => {
    const totals = async () => (await data.messageStats.totals([sessionId])).get(sessionId);
    const before = await totals();
    const folded = store('out@c.us', today, 'outgoing');
    expect((await totals())?.outgoing).toBe((before?.outgoing ?? 0) + 1);
    fail(folded);
    const waiting = store('out@c.us', today, 'outgoing');
    fail(waiting);
    const after = await totals();
    expect([after?.outgoing, after?.failed]).toEqual([
      (before?.outgoing ?? 0) + 2,
      (before?.failed ?? 0) + 2,
    ]);
    const hour = Math.floor((today * DAY + 3600) / 3600);
    const [hourRow] = await data.messageStats.hours([sessionId], hour, hour);
    expect([hourRow?.outgoing, hourRow?.failed]).toEqual([2, 2]);
    const [dayRow] = await data.messageStats.days([sessionId], today, today);
    expect(dayRow?.failed).toBe(2);
  });
});
