/**
 * The manifest's route definitions called without HTTP, the way the MCP endpoint calls them: the caller's key
 * authenticated for the route (`authenticate` with `routeRequirement`), then `callRoute` with the input as received.
 * The very definitions answer what the HTTP API answers for the same call, refuse what it refuses, and a send made
 * this way is stored and readable over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDeps } from '#functions/deps.js';
import { pathParameters } from '#functions/http/engine-operation-route.js';
import type { AnyRoute } from '#functions/http/route.js';
import { callRoute, type RouteInput, routeRequirement } from '#functions/http/route-call.js';
import { allRoutes } from '#functions/manifest.js';
import { type Caller, SYSTEM_CALLER } from '#shared/domain/caller.js';
import { AppError } from '#shared/errors/app-error.js';
import { authenticate } from '#shared/use-cases/auth/authenticate.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { linkedSession } from './sessions-support.js';

const FRIEND = '15550004444';

describe('route definitions called without HTTP', () => {
  let gw: TestGateway;
  let sessionId: string;
  let viewerKey: string;

  const route = (method: string, path: string): AnyRoute => {
    const found = allRoutes().find((r) => r.method === method && r.path === path);
    if (!found) throw new Error(`no route ${method} ${path}`);
    return found;
  };

  /** What a transport without HTTP does: authenticate the presented key for the route, then call it. */
  const call = async (target: AnyRoute, presentedKey: string | undefined, input: RouteInput) => {
    const deps = getDeps();
    const caller: Caller = { ...SYSTEM_CALLER, requestId: 'route-call-test', method: target.method };
    const requirement = routeRequirement(target, input.params);
    if (requirement) {
      const authDeps = {
        apiKeys: deps.main.apiKeys,
        usage: deps.usage,
        audit: deps.audit,
        clock: deps.clock,
      };
      caller.key = await authenticate(authDeps, presentedKey, caller, requirement);
    }
    return callRoute(target, { caller, input }, deps);
  };
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    return { status: (error as AppError).status, code: (error as AppError).code };
  };

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw)).id;
    gw.network.directory.register(FRIEND, '880004');
    viewerKey = (await gw.createKey({ name: 'route-call viewer', role: 'viewer' })).key;
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers what the HTTP API answers: a session, the session list, an engine operation', async () => {
    const getSession = route('GET', '/api/sessions/{id}');
    expect(await call(getSession, viewerKey, { params: { id: sessionId } })).toEqual(
      (await gw.request('GET', `/api/sessions/${sessionId}`)).body,
    );
    expect(await call(route('GET', '/api/sessions'), gw.adminKey, { query: { limit: '5' } })).toEqual(
      (await gw.request('GET', '/api/sessions?limit=5')).body,
    );
    const check = route('GET', '/api/sessions/{sessionId}/contacts/check/{number}');
    expect(await call(check, gw.adminKey, { params: { sessionId, number: FRIEND } })).toEqual({
      number: FRIEND,
      exists: true,
      whatsappId: `${FRIEND}@c.us`,
      lid: '880004@lid',
    });
  });

  it('a send made through its definition is stored, as the HTTP history shows', async () => {
    const send = route('POST', '/api/sessions/{sessionId}/messages/send-text');
    const sent = (await call(send, gw.adminKey, {
      params: { sessionId },
      body: { chatId: `${FRIEND}@c.us`, text: 'sent without HTTP' },
    })) as { id: string; body: string };
    expect(sent).toMatchObject({ body: 'sent without HTTP' });
    const history = await gw.request<{ messages: { id: string }[] }>(
      'GET',
      `/api/sessions/${sessionId}/messages?chatId=${FRIEND}@c.us`,
    );
    expect(history.body.messages.map((message) => message.id)).toContain(sent.id);
  });

  it('refuses as the HTTP API does: no key, a role too low, an unknown session, bad input', async () => {
    const send = route('POST', '/api/sessions/{sessionId}/messages/send-text');
    const input = { params: { sessionId }, body: { chatId: `${FRIEND}@c.us`, text: 'x' } };
    expect(await refusal(call(send, undefined, input))).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(await refusal(call(send, viewerKey, input))).toEqual({ status: 403, code: 'FORBIDDEN_ROLE' });
    const unknown = { ...input, params: { sessionId: '00000000-0000-4000-8000-000000000000' } };
    expect(await refusal(call(send, gw.adminKey, unknown))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    const bad = { ...input, body: { chatId: `${FRIEND}@c.us` } };
    expect(await refusal(call(send, gw.adminKey, bad))).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('every route of the manifest takes a transport-neutral call: a keyless call of a keyed route is 401, a viewer on a higher route 403', async () => {
    const keyed = allRoutes().filter((r) => r.auth !== 'public');
    expect(keyed.length).toBeGreaterThan(40);
    for (const target of keyed) {
      const params = Object.fromEntries(
        pathParameters(target.path).map((name) => [
          name,
          name === 'id' || name === 'sessionId' ? sessionId : 'x',
        ]),
      );
      const label = `${target.method} ${target.path}`;
      expect({ label, ...(await refusal(call(target, undefined, { params }))) }).toEqual({
        label,
        status: 401,
        code: 'UNAUTHORIZED',
      });
      if (target.auth !== 'public' && target.auth.role !== 'viewer') {
        expect({ label, ...(await refusal(call(target, viewerKey, { params }))) }).toEqual({
          label,
          status: 403,
          code: 'FORBIDDEN_ROLE',
        });
      }
    }
  });
});
