/**
 * A route called without HTTP (functions/http/route-call.ts): the caller's key against the route's role, scope and
 * unscoped-only rule; each input part parsed with the route's schemas, in path, query, body order, with every
 * issue's path; the body rules every route shares; and `run` handed only the caller and the parsed input.
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import type { Deps } from '#functions/deps.js';
import { defineRoute, type RouteContext } from '#functions/http/route.js';
import { callRoute, type RouteCall, routeRequirement } from '#functions/http/route-call.js';
import { type Caller, type CallerKey, SYSTEM_CALLER } from '#shared/domain/caller.js';
import { AppError } from '#shared/errors/app-error.js';

const SESSION = '6f1c2a52-8d0e-4c1b-9a57-5d6c0b1e2f3a';
const OTHER = '0b7e4a1c-2d3f-4e5a-8b6c-7d8e9f0a1b2c';
const deps = { marker: 'deps' } as unknown as Deps;
const seen: RouteContext<unknown, unknown, unknown>[] = [];

const sendRoute = defineRoute({
  method: 'POST',
  path: '/api/sessions/{sessionId}/things/{thingId}',
  summary: 'A made-up operator route',
  tag: 'Test',
  auth: { role: 'operator' },
  params: z.strictObject({ sessionId: z.uuid(), thingId: z.string().regex(/^\d+$/) }),
  query: z.strictObject({ limit: z.coerce.number().int().max(10).optional() }),
  body: z.strictObject({ text: z.string().min(1) }),
  success: 200,
  run: async (ctx) => {
    seen.push(ctx as RouteContext<unknown, unknown, unknown>);
    return { echoed: ctx.body.text, thing: ctx.params.thingId, limit: ctx.query.limit ?? null };
  },
});
const adminOnly = defineRoute({
  method: 'GET',
  path: '/api/keys',
  summary: 'A made-up unscoped admin route',
  tag: 'Test',
  auth: { role: 'admin', unscoped: true },
  success: 200,
  run: async () => 'listed',
});
const publicRoute = defineRoute({
  method: 'GET',
  path: '/api/open',
  summary: 'A made-up public route',
  tag: 'Test',
  auth: 'public',
  success: 200,
  run: async ({ bearerToken }) => ({ bearerToken: bearerToken ?? null }),
});

const key = (
  role: CallerKey['role'],
  allowedSessions: string[] | null = null,
  allowedChats: string[] | null = null,
): CallerKey => ({
  id: `key-${role}`,
  name: role,
  role,
  allowedSessions,
  allowedChats,
});
const callerWith = (callerKey: CallerKey | null): Caller => ({ ...SYSTEM_CALLER, key: callerKey });
const good = {
  params: { sessionId: SESSION, thingId: '42' },
  query: { limit: '3' },
  body: { text: 'hello' },
};
const call = (callerKey: CallerKey | null, input: RouteCall['input'] = good): RouteCall => ({
  caller: callerWith(callerKey),
  input,
});

/** The AppError `promise` rejects with, as { status, code, details? }. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  const { status, code, details, message } = error as AppError & { details?: unknown };
  return details === undefined ? { status, code, message } : { status, code, message, details };
}

describe('callRoute', () => {
  it('runs the route with the caller and the parsed input, nothing of a transport', async () => {
    seen.length = 0;
    const caller = callerWith(key('operator'));
    const result = await callRoute(sendRoute, { caller, input: good, idempotencyKey: 'k-1' }, deps);
    expect(result).toEqual({ echoed: 'hello', thing: '42', limit: 3 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toEqual({
      params: { sessionId: SESSION, thingId: '42' },
      query: { limit: 3 },
      body: { text: 'hello' },
      caller,
      deps,
      idempotencyKey: 'k-1',
      bearerToken: undefined,
    });
  });

  it('refuses a caller without a key (401), a role too low, a session outside its scope, a scoped key where only unscoped ones may', async () => {
    expect(await refusal(callRoute(sendRoute, call(null), deps))).toMatchObject({
      status: 401,
      code: 'UNAUTHORIZED',
    });
    expect(await refusal(callRoute(sendRoute, call(key('viewer')), deps))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN_ROLE',
    });
    expect(await refusal(callRoute(sendRoute, call(key('operator', [OTHER])), deps))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN_SESSION',
    });
    expect(await callRoute(sendRoute, call(key('admin', [SESSION])), deps)).toMatchObject({ thing: '42' });
    expect(await refusal(callRoute(adminOnly, call(key('admin', [SESSION]), {}), deps))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN_SCOPED_KEY',
    });
    expect(await callRoute(adminOnly, call(key('admin'), {}), deps)).toBe('listed');
  });

  it('answers a public route without a key, handing it the bearer token a transport received', async () => {
    expect(await callRoute(publicRoute, call(null, {}), deps)).toEqual({ bearerToken: null });
    expect(await callRoute(publicRoute, { ...call(null, {}), bearerToken: 't0k' }, deps)).toEqual({
      bearerToken: 't0k',
    });
  });

  it('parses the path, then the query, then the body, each issue named by its part and path', async () => {
    const operator = key('operator');
    expect(
      await refusal(
        callRoute(sendRoute, call(operator, { ...good, params: { sessionId: 'x', thingId: 'y' } }), deps),
      ),
    ).toMatchObject({
      status: 400,
      details: [
        { path: 'path.sessionId', message: expect.any(String) },
        { path: 'path.thingId', message: expect.any(String) },
      ],
    });
    expect(
      await refusal(
        callRoute(sendRoute, call(operator, { ...good, query: { limit: '99' }, body: {} }), deps),
      ),
    ).toMatchObject({ status: 400, details: [{ path: 'query.limit' }] });
    expect(
      await refusal(callRoute(sendRoute, call(operator, { ...good, query: { limit: '' } }), deps)),
    ).toMatchObject({
      status: 400,
      details: [{ path: 'query.limit', message: 'must not be empty' }],
    });
    expect(
      await refusal(callRoute(sendRoute, call(operator, { ...good, body: { text: '' } }), deps)),
    ).toMatchObject({
      status: 400,
      details: [{ path: 'body.text' }],
    });
  });

  it('applies the body rules of every route: required where a schema is, none or {} where none is, no NUL, bounded depth', async () => {
    const operator = key('operator');
    const { body: _omitted, ...withoutBody } = good;
    for (const body of [undefined, null]) {
      expect(
        await refusal(callRoute(sendRoute, call(operator, { ...withoutBody, body }), deps)),
      ).toMatchObject({
        status: 400,
        details: [{ path: 'body', message: 'required: a JSON object' }],
      });
    }
    for (const body of [undefined, null, {}]) {
      expect(await callRoute(adminOnly, call(key('admin'), { body }), deps)).toBe('listed');
    }
    expect(
      await refusal(callRoute(adminOnly, call(key('admin'), { body: { stray: 1 } }), deps)),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await refusal(callRoute(sendRoute, call(operator, { ...good, body: { text: 'a\u0000b' } }), deps)),
    ).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Request body must not contain NUL characters',
    });
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(
      await refusal(callRoute(sendRoute, call(operator, { ...good, body: { text: deep } }), deps)),
    ).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Request body must not be nested more than 64 levels deep',
    });
  });

  it('states what a route requires of a key for an input', () => {
    expect(routeRequirement(sendRoute, good.params)).toEqual({
      role: 'operator',
      unscoped: false,
      sessionId: SESSION,
      chats: false,
    });
    expect(routeRequirement(adminOnly, {})).toEqual({ role: 'admin', unscoped: true, chats: false });
    expect(routeRequirement(publicRoute, {})).toBeNull();
  });
});

describe('callRoute for a key limited to chats', () => {
  const audited: unknown[] = [];
  const auditingDeps = {
    audit: { record: async (_caller: Caller, entry: unknown) => void audited.push(entry) },
  } as unknown as Deps;
  const chatRoute = defineRoute({
    method: 'POST',
    path: '/api/sessions/{sessionId}/chats/{chatId}/copy',
    summary: 'A made-up route addressing chats in its path and body',
    tag: 'Test',
    auth: { role: 'operator' },
    chats: { addresses: ['chatId', 'toChatIds'] },
    params: z.strictObject({ sessionId: z.uuid(), chatId: z.string() }),
    body: z.strictObject({ toChatIds: z.array(z.string()), note: z.string() }),
    success: 200,
    run: async ({ body }) => ({ copied: body.toChatIds.length }),
  });
  const neutral = defineRoute({
    ...adminOnly,
    path: '/api/neutral',
    auth: { role: 'viewer' },
    chats: 'none',
  });
  const limited = key('operator', null, ['15550001111@c.us', '15550002222@c.us']);
  const input = (chatId: string, toChatIds: string[]) => ({
    params: { sessionId: SESSION, chatId },
    body: { toChatIds, note: '15559999999@c.us' },
  });

  it('runs when every addressed chat is in the list (a bare phone read as <number>@c.us), whatever other fields say', async () => {
    const run = (chatId: string, to: string[]) =>
      callRoute(chatRoute, call(limited, input(chatId, to)), auditingDeps);
    expect(await run('15550001111@c.us', ['15550002222@c.us', '15550001111'])).toEqual({ copied: 2 });
    expect(
      await callRoute(chatRoute, call(key('operator'), input('1@c.us', ['2@c.us'])), auditingDeps),
    ).toEqual({
      copied: 1,
    });
  });

  it('refuses, audited, a chat outside the list in the path or in a list of the body', async () => {
    audited.length = 0;
    const run = (chatId: string, to: string[]) =>
      callRoute(chatRoute, call(limited, input(chatId, to)), auditingDeps);
    expect(await refusal(run('15550003333@c.us', []))).toMatchObject({ status: 403, code: 'FORBIDDEN_CHAT' });
    expect(
      await refusal(run('15550001111@c.us', ['15550002222@c.us', '120363000000000001@g.us'])),
    ).toMatchObject({
      status: 403,
      code: 'FORBIDDEN_CHAT',
      message: 'API key is not allowed to address the chat 120363000000000001@g.us',
    });
    expect(audited).toEqual([
      expect.objectContaining({ action: 'api_key_auth_failed', statusCode: 403, sessionId: SESSION }),
      expect.objectContaining({ action: 'api_key_auth_failed', statusCode: 403, sessionId: SESSION }),
    ]);
  });

  it('lets it call a route that names no chat, and refuses it on a route without a chats declaration', async () => {
    expect(await callRoute(neutral, call(limited, {}), auditingDeps)).toBe('listed');
    expect(await refusal(callRoute(sendRoute, call(limited), auditingDeps))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN_CHAT_RESTRICTED',
    });
    expect(routeRequirement(chatRoute, { sessionId: SESSION })).toMatchObject({ chats: true });
    expect(routeRequirement(sendRoute, { sessionId: SESSION })).toMatchObject({ chats: false });
  });
});
