/**
 * /api/sessions/{sessionId}/automation-rules: creation (defaults, validation of names, reply text and conditions,
 * the per-session cap), reads in evaluation order, partial updates, deletion, and who may call them (operator keys,
 * a key's session scope).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { sessionResourceAccessTests } from './session-resource-access.js';
import {
  createSession,
  expectError,
  expectValidation,
  type SessionBody,
  UNKNOWN_ID,
} from './sessions-support.js';
import { createRule, idsOf, RULE_FIELDS, type RuleBody } from './webhooks-support.js';

const CONDITIONS = {
  conditions: [
    { field: 'body', operator: 'contains', value: ['price', 'cost'] },
    { field: 'isGroup', operator: 'is', value: false },
  ],
};
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('automation rules of a session', () => {
  let gw: TestGateway;
  let session: SessionBody;

  beforeAll(async () => {
    gw = await startTestGateway({ AUTOMATION_MAX_PER_SESSION: '3' });
    session = await createSession(gw);
  });
  afterAll(async () => {
    await gw.close();
  });

  const base = (sessionId = session.id) => `/api/sessions/${sessionId}/automation-rules`;
  const post = (body: unknown, sessionId = session.id) => gw.request('POST', base(sessionId), { body });
  const get = (id: string, sessionId = session.id) => gw.request<RuleBody>('GET', `${base(sessionId)}/${id}`);
  const put = (id: string, body: unknown) => gw.request<RuleBody>('PUT', `${base()}/${id}`, { body });

  it('POST creates a rule with the defaults (201), the name trimmed', async () => {
    const res = await post({ name: '  greeting  ', replyText: 'Hello! We answer within a day.' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(RULE_FIELDS);
    expect(res.body).toMatchObject({
      sessionId: session.id,
      name: 'greeting',
      replyText: 'Hello! We answer within a day.',
      enabled: true,
      conditions: null,
      cooldownSeconds: 60,
    });
    expect((await get(res.body.id)).body).toEqual(res.body);
    expect((await gw.request('DELETE', `${base()}/${res.body.id}`)).status).toBe(204);
  });

  it('POST keeps conditions, a cooldown of 0 and enabled false; empty conditions are stored as null', async () => {
    const own = await createSession(gw);
    const rule = await createRule(gw, own.id, { conditions: CONDITIONS, cooldownSeconds: 0, enabled: false });
    expect(rule).toMatchObject({ conditions: CONDITIONS, cooldownSeconds: 0, enabled: false });
    expect((await createRule(gw, own.id, { conditions: { conditions: [] } })).conditions).toBeNull();
    const longest = await createRule(gw, own.id, { replyText: 'x'.repeat(4096), cooldownSeconds: 86_400 });
    expect(longest.replyText).toHaveLength(4096);
  });

  it('GET lists the rules in evaluation order (oldest first); an update keeps a rule’s place', async () => {
    const own = await createSession(gw);
    const first = await createRule(gw, own.id, { name: 'first' });
    await pause();
    const second = await createRule(gw, own.id, { name: 'second' });
    await pause();
    const third = await createRule(gw, own.id, { name: 'third' });
    await createRule(gw, session.id, { name: 'elsewhere' });
    const list = () => gw.request('GET', base(own.id));
    expect(idsOf(await list())).toEqual([first.id, second.id, third.id]);
    expect(
      (await gw.request('PUT', `${base(own.id)}/${first.id}`, { body: { name: 'renamed' } })).status,
    ).toBe(200);
    expect(idsOf(await list())).toEqual([first.id, second.id, third.id]);
  });

  it('GET one: 404 for an unknown rule and for a rule of another session; 400 for an id that is no uuid', async () => {
    const other = await createSession(gw);
    const foreign = await createRule(gw, other.id);
    expectError(await get(UNKNOWN_ID), 404, 'NOT_FOUND');
    expectError(await get(foreign.id), 404, 'NOT_FOUND');
    expectError(await put(foreign.id, { enabled: false }), 404, 'NOT_FOUND');
    expectError(await gw.request('DELETE', `${base()}/${foreign.id}`), 404, 'NOT_FOUND');
    expect((await get(foreign.id, other.id)).body).toEqual(foreign);
    expectValidation(await get('not-a-uuid'), 'path.ruleId');
  });

  it('PUT changes only the given fields; null clears the conditions and is refused elsewhere', async () => {
    const own = await createSession(gw);
    const rule = await createRule(gw, own.id, { conditions: CONDITIONS });
    const path = `${base(own.id)}/${rule.id}`;
    const res = await gw.request<RuleBody>('PUT', path, {
      body: { replyText: 'New text', cooldownSeconds: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...rule,
      replyText: 'New text',
      cooldownSeconds: 5,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(rule.updatedAt));
    expect((await gw.request('PUT', path, { body: { conditions: null } })).body.conditions).toBeNull();
    for (const field of ['name', 'replyText', 'cooldownSeconds', 'enabled']) {
      expectValidation(await gw.request('PUT', path, { body: { [field]: null } }), `body.${field}`);
    }
    expectValidation(
      await gw.request('PUT', path, { body: { replyText: 'x'.repeat(4097) } }),
      'body.replyText',
    );
    expectValidation(await gw.request('PUT', path, { body: { sessionId: UNKNOWN_ID } }), 'body');
    expect((await gw.request('PUT', path, { body: {} })).status).toBe(200);
    expectError(await put(UNKNOWN_ID, { enabled: true }), 404, 'NOT_FOUND');
  });

  it('DELETE answers 204 and the rule is gone', async () => {
    const rule = await createRule(gw, session.id, { name: 'short-lived' });
    const res = await gw.request('DELETE', `${base()}/${rule.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await get(rule.id), 404, 'NOT_FOUND');
    expectError(await gw.request('DELETE', `${base()}/${rule.id}`), 404, 'NOT_FOUND');
  });

  const tooMany = Array.from({ length: 21 }, () => ({ field: 'body', operator: 'contains', value: 'x' }));
  it.each([
    ['no name', { name: undefined }, 'body.name'],
    ['an empty name', { name: '   ' }, 'body.name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'body.name'],
    ['a line break in the name', { name: 'a\nb' }, 'body.name'],
    ['no replyText', { replyText: undefined }, 'body.replyText'],
    ['an empty replyText', { replyText: '' }, 'body.replyText'],
    ['a replyText over 4096 characters', { replyText: 'x'.repeat(4097) }, 'body.replyText'],
    ['a negative cooldown', { cooldownSeconds: -1 }, 'body.cooldownSeconds'],
    ['a cooldown over a day', { cooldownSeconds: 86_401 }, 'body.cooldownSeconds'],
    ['a fractional cooldown', { cooldownSeconds: 1.5 }, 'body.cooldownSeconds'],
    ['enabled as a string', { enabled: 'true' }, 'body.enabled'],
    [
      'an unknown condition field',
      { conditions: { conditions: [{ field: 'x', operator: 'is', value: 'y' }] } },
      'body.conditions.conditions.0.field',
    ],
    [
      'an operator the field lacks',
      { conditions: { conditions: [{ field: 'isGroup', operator: 'contains', value: true }] } },
      'body.conditions.conditions.0.operator',
    ],
    [
      'a value of the wrong kind',
      { conditions: { conditions: [{ field: 'type', operator: 'is', value: 'gif' }] } },
      'body.conditions.conditions.0.value',
    ],
    ['21 conditions', { conditions: { conditions: tooMany } }, 'body.conditions.conditions'],
    ['conditions as a list', { conditions: [] }, 'body.conditions'],
    ['an unknown field', { priority: 1 }, 'body'],
  ])('POST with %s is 400 VALIDATION_FAILED, and nothing is stored', async (_name, body, path) => {
    const own = await createSession(gw);
    expectValidation(await post({ name: 'rule', replyText: 'reply', ...body }, own.id), path);
    expect((await gw.request('GET', base(own.id))).body).toEqual([]);
  });

  it('a session holds at most AUTOMATION_MAX_PER_SESSION rules (400 AUTOMATION_RULE_LIMIT); a delete frees one', async () => {
    const [full, other] = [await createSession(gw), await createSession(gw)];
    const rules = [];
    for (let i = 0; i < 3; i++) rules.push(await createRule(gw, full.id, { name: `rule-${i}` }));
    expectError(await post({ name: 'one-too-many', replyText: 'r' }, full.id), 400, 'AUTOMATION_RULE_LIMIT');
    await createRule(gw, other.id);
    expect((await gw.request('DELETE', `${base(full.id)}/${rules[1]?.id}`)).status).toBe(204);
    await createRule(gw, full.id, { name: 'fits-again' });
  });

  describe('access', () => {
    sessionResourceAccessTests({
      gw: () => gw,
      collection: 'automation-rules',
      idParam: 'ruleId',
      createBody: { name: 'n', replyText: 'r' },
      updateBody: { enabled: false },
      updated: (rule) => rule.enabled === false,
      create: (sessionId) => createRule(gw, sessionId, { name: 'not-yours' }),
    });
  });
});
