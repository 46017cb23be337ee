/**
 * What every engine operation row (shared/domain/engine-operations/) answers, generated from the rows, on a real
 * gateway in each deployment mode: its example on a ready session (the answer has the row's result shape), 404 for
 * an unknown session, 403 for a key scoped to another session and for a role below the row's, 400
 * SESSION_NOT_READY outside the row's states, 400 VALIDATION_FAILED for a path value its input refuses, and 501 on a
 * gateway whose engine lacks the row's capability (`test-core`: the test engine with the core ports alone).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pathParameters } from '#functions/http/engine-operation-route.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';
import type { Role } from '#shared/domain/roles.js';
import { operationRequest, seedOperationExamples } from '#tests/helpers/engine-operation-requests.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { createSession, expectError, linkedSession } from './sessions-support.js';

const BELOW: Record<Role, Role | null> = { viewer: null, operator: 'viewer', admin: 'operator' };
const rows = ENGINE_OPERATION_ROWS.map((row) => [row.name, row] as const);

describe('engine operations, from their rows', () => {
  let gw: TestGateway;
  let ready: string;
  let created: string;
  const keys = {} as Record<'otherSession' | Role, string>;

  beforeAll(async () => {
    gw = await startTestGateway();
    // The people the rows' examples name are on the test network.
    gw.network.directory.register('15550002222', '880001', 'https://pictures.example/a.jpg');
    ready = (await linkedSession(gw)).id;
    created = (await createSession(gw)).id;
    keys.otherSession = (
      await gw.createKey({ name: 'other', role: 'admin', allowedSessions: [created] })
    ).key;
    for (const role of ['viewer', 'operator', 'admin'] as const)
      keys[role] = (await gw.createKey({ name: role, role })).key;
  });
  afterAll(async () => {
    await gw?.close();
  });

  const send = (sessionId: string, row: (typeof rows)[number][1], key?: string) => {
    const { method, path, body } = operationRequest(row, sessionId);
    return gw.request(method, path, { ...(body === undefined ? {} : { body }), ...(key ? { key } : {}) });
  };

  it.each(rows)('%s: its example on a ready session answers the row’s result', async (_, row) => {
    seedOperationExamples(gw.network, ready, '15550001111');
    const answer = await send(ready, row, keys[row.role]);
    expect(answer.status).toBe(row.http.success);
    expect(row.result.safeParse(answer.body).error).toBeUndefined();
  });

  it.each(rows)('%s: 404 for an unknown session', async (_, row) => {
    expectError(await send(randomUUID(), row), 404, 'NOT_FOUND');
  });

  it.each(rows)('%s: 403 for a key scoped to another session', async (_, row) => {
    expectError(await send(ready, row, keys.otherSession), 403, 'FORBIDDEN_SESSION');
  });

  it.each(rows)('%s: 403 for the role below the row’s, if any', async (_, row) => {
    const below = BELOW[row.role];
    if (below === null) return expect(row.role).toBe('viewer');
    expectError(await send(ready, row, keys[below]), 403, 'FORBIDDEN_ROLE');
  });

  it.each(rows)('%s: 400 SESSION_NOT_READY for a session outside its states', async (_, row) => {
    expect(row.states ?? ['ready']).not.toContain('created');
    expectError(await send(created, row), 400, 'SESSION_NOT_READY');
  });

  it.each(rows.filter(([, row]) => /\{(?!sessionId\})\w+\}/.test(row.http.path)))(
    '%s: 400 VALIDATION_FAILED for a path value its input refuses',
    async (_, row) => {
      const inPath = pathParameters(row.http.path);
      for (const field of inPath.filter((name) => name !== 'sessionId')) {
        const input = { ...(row.example.input as Record<string, unknown>), [field]: 'not valid' };
        const { method, path, body } = operationRequest(row, ready, input);
        expectError(
          await gw.request(method, path, body === undefined ? {} : { body }),
          400,
          'VALIDATION_FAILED',
        );
      }
    },
  );
});

// Its own gateway, started once the other is closed: a process holds one gateway's function dependencies at a time,
// as a Lambda does (functions/deps.ts).
describe('engine operations, from their rows, on an engine without their capabilities', () => {
  let core: TestGateway;
  beforeAll(async () => {
    core = await startTestGateway({ ENGINE: 'test-core' });
  });
  afterAll(async () => {
    await core?.close();
  });

  it.each(rows)('%s: 501 ENGINE_UNSUPPORTED', async (_, row) => {
    const session = await linkedSession(core);
    const { method, path, body } = operationRequest(row, session.id);
    const answer = expectError(
      await core.request(method, path, body === undefined ? {} : { body }),
      501,
      'ENGINE_UNSUPPORTED',
    );
    expect(answer.details).toMatchObject({ engine: 'test-core', capability: row.capability });
  });
});
