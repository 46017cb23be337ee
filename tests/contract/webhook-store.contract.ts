/**
 * Behaviour every WebhookStore adapter must show: records scoped to their session, a per-session cap, newest-first
 * lists (per session, across a scope, active only), patches of the listed fields, and lastTriggeredAt that only
 * moves forward.
 */
import type { Webhook } from '#shared/domain/webhook.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import type { WebhookStore } from '#shared/ports/webhook-store.port.js';
import { aSession, at, aWebhook, T0 } from '#tests/helpers/builders.js';
import { perSessionCapTests } from './per-session-cap.js';

/** The store under test plus the session store of the same data store, because webhooks belong to sessions. */
export interface OpenedWebhookStore {
  store: WebhookStore;
  sessions: SessionStore;
  close(): Promise<void>;
}

const NO_CAP = { maxPerSession: 0 };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

export function webhookStoreContract(name: string, open: () => Promise<OpenedWebhookStore>): void {
  describe(`WebhookStore contract: ${name}`, () => {
    let store: WebhookStore;
    let close: () => Promise<void>;
    let s1: string;
    let s2: string;

    beforeEach(async () => {
      const opened = await open();
      ({ store, close } = opened);
      const sessions = [aSession(), aSession()];
      for (const session of sessions) await opened.sessions.create(session);
      [s1, s2] = sessions.map((session) => session.id) as [string, string];
    });
    afterEach(async () => {
      await close();
    });

    async function seed(...webhooks: Webhook[]): Promise<Webhook[]> {
      for (const webhook of webhooks) await store.create(webhook, NO_CAP);
      return webhooks;
    }
    const ids = (webhooks: Webhook[]): string[] => webhooks.map((webhook) => webhook.id);

    describe('create and find', () => {
      it('finds a created webhook with every field intact', async () => {
        const webhook = aWebhook({
          sessionId: s1,
          url: 'http://10.0.0.1:8080/hook?a=1',
          events: ['message.received', 'session.status', '*'],
          secret: 'a-secret-of-16ch',
          headers: { 'X-Token': 'abc', Authorization: 'Bearer ä' },
          filters: {
            conditions: [
              { field: 'sender', operator: 'is', value: ['4915111111111@c.us', '4915122222222'] },
              { field: 'body', operator: 'contains', value: 'Hi', caseSensitive: true },
              { field: 'isGroup', operator: 'is', value: false },
            ],
          },
          active: false,
          retryCount: 0,
          lastTriggeredAt: at(5),
          createdAt: at(1),
          updatedAt: at(2),
        });
        await store.create(webhook, { maxPerSession: 16 });
        expect(await store.findById(s1, webhook.id)).toEqual(webhook);
      });

      it("answers null for an unknown id and for another session's webhook", async () => {
        const [webhook] = await seed(aWebhook({ sessionId: s1 }));
        expect(await store.findById(s1, UNKNOWN)).toBeNull();
        expect(await store.findById(s2, webhook!.id)).toBeNull();
      });

      it('rejects a taken id with ConflictError, keeping the first', async () => {
        const [first] = await seed(aWebhook({ sessionId: s1 }));
        const clash = aWebhook({ sessionId: s1, id: first!.id, url: 'https://other.example/' });
        await expect(store.create(clash, NO_CAP)).rejects.toBeInstanceOf(ConflictError);
        expect(await store.findById(s1, first!.id)).toEqual(first);
      });

      it('hands out copies: mutating an argument or a result does not change the store', async () => {
        const webhook = aWebhook({ sessionId: s1, headers: { 'X-A': '1' }, events: ['message.ack'] });
        await seed(webhook);
        webhook.headers['X-A'] = 'changed';
        webhook.events.push('message.sent');
        const found = await store.findById(s1, webhook.id);
        found!.headers['X-A'] = 'changed';
        found!.active = false;
        expect(await store.findById(s1, webhook.id)).toMatchObject({
          headers: { 'X-A': '1' },
          events: ['message.ack'],
          active: true,
        });
      });
    });

    describe('per-session cap', () => {
      perSessionCapTests({
        make: (sessionId) => aWebhook({ sessionId }),
        create: (webhook, maxPerSession) => store.create(webhook, { maxPerSession }),
        remove: async (webhook) => {
          await store.delete(webhook.sessionId, webhook.id);
        },
        count: async (sessionId) => (await store.listBySession(sessionId)).length,
        sessions: () => [s1, s2],
        code: 'WEBHOOK_LIMIT',
      });
    });

    describe('lists', () => {
      it('lists a session newest first (createdAt, then id), without other sessions', async () => {
        const old = aWebhook({ sessionId: s1, createdAt: at(1) });
        const tieA = aWebhook({
          sessionId: s1,
          id: '10000000-0000-4000-8000-000000000000',
          createdAt: at(2),
        });
        const tieB = aWebhook({
          sessionId: s1,
          id: '20000000-0000-4000-8000-000000000000',
          createdAt: at(2),
        });
        const newest = aWebhook({ sessionId: s1, createdAt: at(3) });
        await seed(tieA, newest, aWebhook({ sessionId: s2, createdAt: at(4) }), old, tieB);
        expect(ids(await store.listBySession(s1))).toEqual([newest.id, tieB.id, tieA.id, old.id]);
        expect(await store.listBySession(UNKNOWN)).toEqual([]);
      });

      it('lists across sessions newest first, within a scope, a page at a time', async () => {
        const webhooks = await seed(
          aWebhook({ sessionId: s1, createdAt: at(1) }),
          aWebhook({ sessionId: s2, createdAt: at(2) }),
          aWebhook({ sessionId: s1, createdAt: at(3) }),
          aWebhook({ sessionId: s2, createdAt: at(4) }),
        );
        const newestFirst = ids(webhooks).reverse();
        expect(ids(await store.list({}, { limit: 10, offset: 0 }))).toEqual(newestFirst);
        expect(ids(await store.list({}, { limit: 2, offset: 1 }))).toEqual(newestFirst.slice(1, 3));
        expect(ids(await store.list({}, { limit: 2, offset: 4 }))).toEqual([]);
        expect(ids(await store.list({ sessionIds: [s1] }, { limit: 10, offset: 0 }))).toEqual([
          webhooks[2]!.id,
          webhooks[0]!.id,
        ]);
        expect(ids(await store.list({ sessionIds: [s2, UNKNOWN] }, { limit: 1, offset: 1 }))).toEqual([
          webhooks[1]!.id,
        ]);
        expect(await store.list({ sessionIds: [] }, { limit: 10, offset: 0 })).toEqual([]);
      });

      it("lists only a session's active webhooks for fan-out", async () => {
        const [on, , later] = await seed(
          aWebhook({ sessionId: s1, createdAt: at(1) }),
          aWebhook({ sessionId: s1, active: false, createdAt: at(2) }),
          aWebhook({ sessionId: s1, events: ['*'], createdAt: at(3) }),
          aWebhook({ sessionId: s2, createdAt: at(4) }),
        );
        expect(await store.listActive(s1)).toEqual([later, on]);
        expect(await store.listActive(UNKNOWN)).toEqual([]);
      });
    });

    describe('update', () => {
      it('applies the listed fields, clears with null, and answers the stored webhook', async () => {
        const [webhook] = await seed(
          aWebhook({
            sessionId: s1,
            secret: 'a-secret-of-16ch',
            filters: { conditions: [{ field: 'fromMe', operator: 'is', value: false }] },
            createdAt: at(1),
          }),
        );
        const patch = {
          url: 'https://new.example/hook',
          events: ['message.ack' as const],
          secret: null,
          headers: { 'X-New': 'v' },
          filters: null,
          active: false,
          retryCount: 5,
          updatedAt: at(9),
        };
        const expected = { ...webhook!, ...patch };
        expect(await store.update(s1, webhook!.id, patch)).toEqual(expected);
        expect(await store.findById(s1, webhook!.id)).toEqual(expected);
      });

      it('changes nothing but the listed fields, and leaves undefined fields as they are', async () => {
        const [webhook] = await seed(aWebhook({ sessionId: s1, createdAt: at(1) }));
        const sneaky = {
          active: false,
          url: undefined,
          sessionId: s2,
          createdAt: at(7),
          lastTriggeredAt: at(8),
        };
        expect(await store.update(s1, webhook!.id, sneaky as never)).toEqual({ ...webhook!, active: false });
      });

      it("answers null for an unknown id or another session's webhook, changing nothing", async () => {
        const [webhook] = await seed(aWebhook({ sessionId: s1 }));
        expect(await store.update(s1, UNKNOWN, { active: false })).toBeNull();
        expect(await store.update(s2, webhook!.id, { active: false })).toBeNull();
        expect(await store.findById(s1, webhook!.id)).toEqual(webhook);
      });
    });

    describe('delete', () => {
      it("deletes one webhook, and answers false for an unknown one or another session's", async () => {
        const [gone, kept] = await seed(aWebhook({ sessionId: s1 }), aWebhook({ sessionId: s1 }));
        expect(await store.delete(s2, gone!.id)).toBe(false);
        expect(await store.delete(s1, gone!.id)).toBe(true);
        expect(await store.delete(s1, gone!.id)).toBe(false);
        expect(await store.listBySession(s1)).toEqual([kept]);
      });

      it("deletes a session's webhooks, answering how many, and frees its cap", async () => {
        const [, , other] = await seed(
          aWebhook({ sessionId: s1 }),
          aWebhook({ sessionId: s1 }),
          aWebhook({ sessionId: s2 }),
        );
        expect(await store.deleteBySession(s1)).toBe(2);
        expect(await store.listBySession(s1)).toEqual([]);
        expect(await store.listBySession(s2)).toEqual([other]);
        expect(await store.deleteBySession(s1)).toBe(0);
        await store.create(aWebhook({ sessionId: s1 }), { maxPerSession: 1 });
      });
    });

    describe('touchTriggered', () => {
      it('moves lastTriggeredAt forward only, leaving updatedAt', async () => {
        const [webhook] = await seed(aWebhook({ sessionId: s1, createdAt: at(0) }));
        const later = new Date(T0.getTime() + 60_000);
        await store.touchTriggered(s1, webhook!.id, later);
        await store.touchTriggered(s1, webhook!.id, T0);
        expect(await store.findById(s1, webhook!.id)).toEqual({
          ...webhook!,
          lastTriggeredAt: later.toISOString(),
        });
      });

      it("ignores an unknown webhook and another session's", async () => {
        const [webhook] = await seed(aWebhook({ sessionId: s1 }));
        await store.touchTriggered(s1, UNKNOWN, T0);
        await store.touchTriggered(s2, webhook!.id, T0);
        expect(await store.findById(s1, webhook!.id)).toEqual(webhook);
        expect(await store.findById(s2, UNKNOWN)).toBeNull();
      });
    });
  });
}
