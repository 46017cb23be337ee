/**
 * Who may call the routes of a resource that a session owns and that only operators manage (automation rules,
 * templates): one shared block of API tests. Every route answers 401 without a key, 403 to a viewer and to a key
 * scoped to another session, 404 for an unknown session and 400 for a session id that is no uuid; an operator key
 * scoped to a session manages that session's records through every route.
 */
import { beforeAll, expect, it } from '@jest/globals';
import type { TestGateway } from '#tests/helpers/test-gateway.js';
import { createSession, expectError, expectValidation, UNKNOWN_ID } from './sessions-support.js';
import { idsOf } from './webhooks-support.js';

interface Owned {
  id: string;
}

export interface SessionResource {
  gw(): TestGateway;
  /** The collection under /api/sessions/{sessionId}/ (`automation-rules`, `templates`). */
  collection: string;
  /** The name of the record's path parameter (`ruleId`). */
  idParam: string;
  /** A valid create body, and an update whose effect `updated` checks on the answer. */
  createBody: Record<string, unknown>;
  updateBody: Record<string, unknown>;
  updated(record: Record<string, unknown>): boolean;
  /** Creates a record of `sessionId` with the admin key. */
  create(sessionId: string): Promise<Owned>;
}

export function sessionResourceAccessTests(resource: SessionResource): void {
  const routes = [
    ['POST', ''],
    ['GET', ''],
    ['GET', `/{${resource.idParam}}`],
    ['PUT', `/{${resource.idParam}}`],
    ['DELETE', `/{${resource.idParam}}`],
  ] as const;
  const base = (sessionId: string) => `/api/sessions/${sessionId}/${resource.collection}`;
  const bodyOf = (method: string) =>
    method === 'POST' ? resource.createBody : method === 'PUT' ? resource.updateBody : undefined;
  const pathOf = (sessionId: string, suffix: string, id: string) =>
    `${base(sessionId)}${suffix.replace(`{${resource.idParam}}`, id)}`;

  let gw: TestGateway;
  let viewer: string;
  let scopedToOwn: string;
  let own: string;
  let other: string;
  let foreign: Owned;

  beforeAll(async () => {
    gw = resource.gw();
    [own, other] = [(await createSession(gw)).id, (await createSession(gw)).id];
    foreign = await resource.create(other);
    viewer = (await gw.createKey({ name: `${resource.collection}-viewer`, role: 'viewer' })).key;
    const scope = { role: 'operator', allowedSessions: [own] };
    scopedToOwn = (await gw.createKey({ name: `${resource.collection}-scoped`, ...scope })).key;
  });

  it.each(
    routes.map(([m, s]) => [`${m} /api/sessions/{sessionId}/${resource.collection}${s}`, m, s] as const),
  )(
    '%s: 401 without a key, 403 for a viewer and for a key scoped to another session, 404 for an unknown session',
    async (_label, method, suffix) => {
      const path = pathOf(other, suffix, foreign.id);
      const body = bodyOf(method);
      expectError(await gw.request(method, path, { key: null, body }), 401, 'UNAUTHORIZED');
      expectError(await gw.request(method, path, { key: viewer, body }), 403, 'FORBIDDEN_ROLE');
      expectError(await gw.request(method, path, { key: scopedToOwn, body }), 403, 'FORBIDDEN_SESSION');
      expect((await gw.request('GET', `${base(other)}/${foreign.id}`)).body).toEqual(foreign);
      const unknown = pathOf(UNKNOWN_ID, suffix, UNKNOWN_ID);
      expectError(await gw.request(method, unknown, { body }), 404, 'NOT_FOUND');
      expectValidation(
        await gw.request(method, pathOf('nope', suffix, UNKNOWN_ID), { body }),
        'path.sessionId',
      );
    },
  );

  it(`an operator key scoped to a session manages that session’s ${resource.collection} through every route`, async () => {
    const key = scopedToOwn;
    const created = await gw.request<Owned>('POST', base(own), { key, body: resource.createBody });
    expect(created.status).toBe(201);
    const path = `${base(own)}/${created.body.id}`;
    expect(idsOf(await gw.request('GET', base(own), { key }))).toEqual([created.body.id]);
    expect((await gw.request('GET', path, { key })).body).toEqual(created.body);
    const update = await gw.request('PUT', path, { key, body: resource.updateBody });
    expect([update.status, resource.updated(update.body)]).toEqual([200, true]);
    expect((await gw.request('DELETE', path, { key })).status).toBe(204);
  });
}
