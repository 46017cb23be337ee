/**
 * What only the SQLite webhook and rule stores show beyond their contracts: they belong to a session by foreign
 * key (deleting the session cascades; an unknown session is a 404), cooldowns survive a reopen of the file, and
 * corrupt JSON columns read defensively.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteDataStore } from '#shared/adapters/sqlite/sqlite-stores.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { anAutomationRule, aSession, aWebhook, T0 } from '#tests/helpers/builders.js';

const NO_CAP = { maxPerSession: 0 };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('sqlite webhook and automation rule stores', () => {
  let dir: string;
  let file: string;
  let data: DataStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-webhooks-'));
    file = path.join(dir, 'data.sqlite');
    data = openSqliteDataStore(file);
  });
  afterEach(async () => {
    await data.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('deletes the webhooks and rules of a session with its row (cascade), and only those', async () => {
    const gone = aSession();
    const kept = aSession();
    for (const session of [gone, kept]) await data.sessions.create(session);
    await data.webhooks.create(aWebhook({ sessionId: gone.id }), NO_CAP);
    await data.automationRules.create(anAutomationRule({ sessionId: gone.id }), NO_CAP);
    const webhook = aWebhook({ sessionId: kept.id });
    const rule = anAutomationRule({ sessionId: kept.id });
    await data.webhooks.create(webhook, NO_CAP);
    await data.automationRules.create(rule, NO_CAP);

    expect(await data.sessions.delete(gone.id)).toBe(true);
    expect(await data.webhooks.listBySession(gone.id)).toEqual([]);
    expect(await data.automationRules.listBySession(gone.id)).toEqual([]);
    expect(await data.webhooks.listBySession(kept.id)).toEqual([webhook]);
    expect(await data.automationRules.listBySession(kept.id)).toEqual([rule]);
  });

  it('rejects a webhook or rule of an unknown session with NotFoundError, not a retryable 503', async () => {
    await expect(data.webhooks.create(aWebhook({ sessionId: UNKNOWN }), NO_CAP)).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    await expect(
      data.automationRules.create(anAutomationRule({ sessionId: UNKNOWN }), { maxPerSession: 32 }),
    ).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('keeps a running cooldown across a reopen of the file', async () => {
    expect(await data.automationRules.claimCooldown('rule-1', '4915111111111@c.us', T0, 60)).toBe(true);
    await data.close();
    data = openSqliteDataStore(file);
    const later = new Date(T0.getTime() + 30_000);
    expect(await data.automationRules.claimCooldown('rule-1', '4915111111111@c.us', later, 60)).toBe(false);
  });

  it('sweeps ended cooldowns in passing, so the table holds about the running ones', async () => {
    for (let chat = 0; chat < 40; chat++) {
      await data.automationRules.claimCooldown('rule-1', `49151000000${chat}@c.us`, T0, 10);
    }
    const later = new Date(T0.getTime() + 60_000);
    for (const chat of ['a', 'b', 'c']) {
      await data.automationRules.claimCooldown('rule-2', `${chat}@g.us`, later, 10);
    }
    const raw = new Database(file, { readonly: true });
    const count = raw.prepare('SELECT COUNT(*) AS n FROM automation_cooldowns').get() as { n: number };
    raw.close();
    expect(count.n).toBe(3);
  });

  it('reads corrupt JSON columns defensively: no events, no headers, no filters', async () => {
    const session = aSession();
    await data.sessions.create(session);
    const webhook = aWebhook({
      sessionId: session.id,
      headers: { 'X-A': '1' },
      filters: { conditions: [{ field: 'fromMe', operator: 'is', value: false }] },
    });
    const rule = anAutomationRule({ sessionId: session.id, conditions: webhook.filters });
    await data.webhooks.create(webhook, NO_CAP);
    await data.automationRules.create(rule, NO_CAP);
    const raw = new Database(file);
    raw
      .prepare(
        `UPDATE webhooks SET events = '["message.received","nope",1]', headers = '[1]', filters = '{"x":1}'`,
      )
      .run();
    raw.prepare(`UPDATE automation_rules SET conditions = 'not json'`).run();
    raw.close();
    expect(await data.webhooks.findById(session.id, webhook.id)).toMatchObject({
      events: ['message.received'],
      headers: {},
      filters: null,
    });
    expect((await data.automationRules.findById(session.id, rule.id))!.conditions).toBeNull();
  });
});
