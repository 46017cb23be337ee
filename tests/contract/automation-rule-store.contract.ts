/**
 * Behaviour every AutomationRuleStore adapter must show: rules scoped to their session, a per-session cap, the
 * evaluation order (oldest first, id as tiebreak), patches of the listed fields, and per (rule, chat) cooldowns
 * claimed atomically.
 */
import type { AutomationRule } from '#shared/domain/automation-rule.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { AutomationRuleStore } from '#shared/ports/automation-rule-store.port.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { anAutomationRule, aSession, at, T0 } from '#tests/helpers/builders.js';
import { perSessionCapTests } from './per-session-cap.js';
import { sessionScopedRecordTests } from './session-scoped-records.js';

/** The store under test plus the session store of the same data store, because rules belong to sessions. */
export interface OpenedAutomationRuleStore {
  store: AutomationRuleStore;
  sessions: SessionStore;
  close(): Promise<void>;
}

const NO_CAP = { maxPerSession: 0 };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ALICE = '4915111111111@c.us';
const BOB = '4915122222222@c.us';

/** T0 plus `seconds`. */
const atSecond = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

export function automationRuleStoreContract(
  name: string,
  open: () => Promise<OpenedAutomationRuleStore>,
): void {
  describe(`AutomationRuleStore contract: ${name}`, () => {
    let store: AutomationRuleStore;
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

    async function seed(...rules: AutomationRule[]): Promise<AutomationRule[]> {
      for (const rule of rules) await store.create(rule, NO_CAP);
      return rules;
    }

    describe('create, find and list', () => {
      it('finds a created rule with every field intact', async () => {
        const rule = anAutomationRule({
          sessionId: s1,
          name: 'Out of office ✈',
          enabled: false,
          conditions: {
            conditions: [
              { field: 'type', operator: 'isNot', value: ['sticker', 'call'] },
              { field: 'chatId', operator: 'is', value: ALICE, caseSensitive: false },
            ],
          },
          replyText: 'Back on Monday.\nUrgent? Call us.',
          cooldownSeconds: 0,
          createdAt: at(1),
          updatedAt: at(2),
        });
        await store.create(rule, { maxPerSession: 32 });
        expect(await store.findById(s1, rule.id)).toEqual(rule);
      });

      it("answers null for an unknown id and for another session's rule", async () => {
        const [rule] = await seed(anAutomationRule({ sessionId: s1 }));
        expect(await store.findById(s1, UNKNOWN)).toBeNull();
        expect(await store.findById(s2, rule!.id)).toBeNull();
      });

      it('rejects a taken id with ConflictError, keeping the first', async () => {
        const [first] = await seed(anAutomationRule({ sessionId: s1 }));
        const clash = anAutomationRule({ sessionId: s1, id: first!.id, replyText: 'other' });
        await expect(store.create(clash, NO_CAP)).rejects.toBeInstanceOf(ConflictError);
        expect(await store.findById(s1, first!.id)).toEqual(first);
      });

      it('hands out copies: mutating an argument or a result does not change the store', async () => {
        const rule = anAutomationRule({
          sessionId: s1,
          conditions: { conditions: [{ field: 'body', operator: 'contains', value: ['a'] }] },
        });
        await seed(rule);
        rule.conditions!.conditions.pop();
        const found = await store.findById(s1, rule.id);
        found!.conditions!.conditions.pop();
        found!.name = 'changed';
        expect((await store.findById(s1, rule.id))!.conditions!.conditions).toHaveLength(1);
      });
    });

    describe('per-session cap', () => {
      perSessionCapTests({
        make: (sessionId) => anAutomationRule({ sessionId }),
        create: (rule, maxPerSession) => store.create(rule, { maxPerSession }),
        remove: async (rule) => {
          await store.delete(rule.sessionId, rule.id);
        },
        count: async (sessionId) => (await store.listBySession(sessionId)).length,
        sessions: () => [s1, s2],
        code: 'AUTOMATION_RULE_LIMIT',
      });
    });

    describe('update', () => {
      it('applies only the listed fields and answers the stored rule', async () => {
        const [rule] = await seed(anAutomationRule({ sessionId: s1, createdAt: at(1) }));
        const patch = {
          name: 'renamed',
          enabled: false,
          conditions: { conditions: [{ field: 'isGroup' as const, operator: 'is' as const, value: true }] },
          replyText: 'new text',
          cooldownSeconds: 600,
          updatedAt: at(5),
        };
        const sneaky = { ...patch, sessionId: s2, createdAt: at(9), replyText: undefined };
        const expected = { ...rule!, ...patch, replyText: rule!.replyText };
        expect(await store.update(s1, rule!.id, sneaky as never)).toEqual(expected);
        expect(await store.update(s1, rule!.id, { conditions: null })).toEqual({
          ...expected,
          conditions: null,
        });
        expect(await store.update(s2, rule!.id, { enabled: true })).toBeNull();
        expect(await store.update(s1, UNKNOWN, { enabled: true })).toBeNull();
        expect(await store.findById(s1, rule!.id)).toEqual({ ...expected, conditions: null });
      });
    });

    describe('scoped to the session', () => {
      sessionScopedRecordTests({
        make: (fields) => anAutomationRule(fields),
        create: (rule) => store.create(rule, NO_CAP),
        list: (sessionId) => store.listBySession(sessionId),
        delete: (sessionId, id) => store.delete(sessionId, id),
        deleteBySession: (sessionId) => store.deleteBySession(sessionId),
        sessions: () => [s1, s2],
        order: 'oldest first',
      });
    });

    describe('claimCooldown', () => {
      const RULE = '30000000-0000-4000-8000-000000000000';

      it('lets a rule answer a chat once per cooldown, again from the instant it ends', async () => {
        expect(await store.claimCooldown(RULE, ALICE, atSecond(0), 60)).toBe(true);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(1), 60)).toBe(false);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(59.999), 60)).toBe(false);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(60), 60)).toBe(true);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(90), 60)).toBe(false);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(120), 60)).toBe(true);
      });

      it('keeps a cooldown per (rule, chat) pair', async () => {
        const other = '40000000-0000-4000-8000-000000000000';
        expect(await store.claimCooldown(RULE, ALICE, atSecond(0), 60)).toBe(true);
        expect(await store.claimCooldown(RULE, BOB, atSecond(1), 60)).toBe(true);
        expect(await store.claimCooldown(other, ALICE, atSecond(2), 60)).toBe(true);
        expect(await store.claimCooldown(RULE, BOB, atSecond(2), 60)).toBe(false);
        expect(await store.claimCooldown(other, ALICE, atSecond(3), 60)).toBe(false);
      });

      it('never cools down with 0 seconds, and a running cooldown does not block a 0-second claim', async () => {
        for (const second of [0, 0, 1])
          expect(await store.claimCooldown(RULE, ALICE, atSecond(second), 0)).toBe(true);
        expect(await store.claimCooldown(RULE, BOB, atSecond(0), 60)).toBe(true);
        expect(await store.claimCooldown(RULE, BOB, atSecond(1), 0)).toBe(true);
        expect(await store.claimCooldown(RULE, BOB, atSecond(2), 60)).toBe(false);
      });

      it('gives a racing pair of claims exactly one win', async () => {
        const claims = await Promise.all(
          Array.from({ length: 5 }, () => store.claimCooldown(RULE, ALICE, atSecond(0), 30)),
        );
        expect(claims.filter(Boolean)).toHaveLength(1);
      });

      it('measures the cooldown from the claim that won, whatever earlier claims recorded', async () => {
        expect(await store.claimCooldown(RULE, ALICE, atSecond(0), 10)).toBe(true);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(10), 3600)).toBe(true);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(3609), 10)).toBe(false);
        expect(await store.claimCooldown(RULE, ALICE, atSecond(3610), 10)).toBe(true);
      });
    });
  });
}
