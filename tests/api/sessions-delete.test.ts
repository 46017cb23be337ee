/** DELETE /api/sessions/{id}: removal in every state, credential wipe, audit, and what is left afterwards. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  apiTarget,
  embeddedOnly,
  startTestGateway,
  type TestGateway,
  waitFor,
} from '#tests/helpers/test-gateway.js';
import {
  createSession,
  expectError,
  linkedSession,
  recordEvents,
  SESSION_ID_ROUTES,
  settledAudit,
  startTo,
  waitForAudit,
  waitForSession,
} from './sessions-support.js';

describe('DELETE /api/sessions/{id}', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  const remove = (id: string) => gw.request('DELETE', `/api/sessions/${id}`);

  it('204 with no body; the session is gone from every route and the name can be reused', async () => {
    const session = await createSession(gw);
    const res = await remove(session.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await gw.request('GET', `/api/sessions/${session.id}`), 404, 'NOT_FOUND');
    for (const [method, suffix] of SESSION_ID_ROUTES) {
      expectError(await gw.request(method, `/api/sessions/${session.id}${suffix}`), 404, 'NOT_FOUND');
    }
    expect((await gw.request('GET', `/api/sessions?name=${session.name}`)).body).toEqual([]);
    const [audit] = await waitForAudit(gw, 'session_deleted', session.id);
    expect(audit).toMatchObject({ severity: 'info', sessionName: session.name });

    const reused = await gw.request('POST', '/api/sessions', { body: { name: session.name } });
    expect(reused.status).toBe(201);
    expect(reused.body.id).not.toBe(session.id);
    expect(reused.body.status).toBe('created');
  });

  it('a ready session: the engine is closed, credentials wiped, and no late event revives it', async () => {
    const session = await linkedSession(gw);
    expect(gw.network.credentialsOf(session.id)).toBeDefined();
    const recorder = recordEvents(gw, session.id);
    expect((await remove(session.id)).status).toBe(204);
    expect(gw.network.credentialsOf(session.id)).toBeUndefined();
    expect(gw.network.isConnected(session.id)).toBe(false);
    gw.network.dropConnection(session.id); // no live connection: a no-op
    expectError(await gw.request('GET', `/api/sessions/${session.id}`), 404, 'NOT_FOUND');
    expect(recorder.events).toEqual([]);
    recorder.stop();
    expect(await settledAudit(gw, 'session_deleted', session.id)).toHaveLength(1);
  });

  it('a session showing its QR: the engine is closed and the QR is gone', async () => {
    const session = await createSession(gw);
    await startTo(gw, session.id, 'qr_ready');
    expect(gw.network.isConnected(session.id)).toBe(true);
    expect((await remove(session.id)).status).toBe(204);
    expect(gw.network.isConnected(session.id)).toBe(false);
    expectError(await gw.request('GET', `/api/sessions/${session.id}/qr`), 404, 'NOT_FOUND');
    expect(() => gw.network.scanQr(session.id, { phone: '15550009999' })).toThrow(/no live connection/);
  });

  embeddedOnly(
    it,
    "the test engine keeps credentials in the host's test network, and in aws mode a session no host runs (failed, " +
      'stopped) has them wiped by the function in the DynamoDB auth state (tests/aws/offline-stack.test.ts)',
  )('a failed and a stopped session can be deleted; their credentials are wiped too', async () => {
    const failing = await linkedSession(gw, { config: { maxReconnectAttempts: 0 } });
    gw.network.dropConnection(failing.id);
    await waitForSession(gw, failing.id, 'failed');
    const stopped = await linkedSession(gw);
    expect((await gw.request('POST', `/api/sessions/${stopped.id}/stop`)).status).toBe(200);
    for (const session of [failing, stopped]) {
      expect(gw.network.credentialsOf(session.id)).toBeDefined();
      expect((await remove(session.id)).status).toBe(204);
      expect(gw.network.credentialsOf(session.id)).toBeUndefined();
      expectError(await gw.request('GET', `/api/sessions/${session.id}`), 404, 'NOT_FOUND');
    }
  });

  it('a delete racing a start leaves no engine and no credentials behind', async () => {
    const session = await createSession(gw);
    gw.network.storeCredentials(session.id, { phone: '15550008888', pushName: null });
    const [started, deleted] = await Promise.all([
      gw.request('POST', `/api/sessions/${session.id}/start`),
      remove(session.id),
    ]);
    expect([200, 404]).toContain(started.status);
    expect(deleted.status).toBe(204);
    // The embedded queue consumes commands in order, so once a later start has been carried out the raced one has
    // been too. SQS orders them per session only: there a raced start may still be on its way, and an engine it
    // started ends once its first status write finds the row gone (tests/unit/host/session-runner.test.ts).
    await linkedSession(gw);
    if (apiTarget === 'embedded') expect(gw.network.isConnected(session.id)).toBe(false);
    else await waitFor(() => !gw.network.isConnected(session.id) || null);
    // When the delete wins the race, no host owns the session yet and the function wipes the stored credentials:
    // in aws mode those are the DynamoDB auth state (tests/aws/offline-stack.test.ts), not the test engine's, which
    // live in the host's network and only a host wipes. So here only the embedded gateway can show them gone.
    if (apiTarget === 'embedded') expect(gw.network.credentialsOf(session.id)).toBeUndefined();
    expectError(await gw.request('GET', `/api/sessions/${session.id}`), 404, 'NOT_FOUND');
  });

  it('a second delete is 404 and audits nothing more', async () => {
    const session = await createSession(gw);
    expect((await remove(session.id)).status).toBe(204);
    expectError(await remove(session.id), 404, 'NOT_FOUND');
    expect(await settledAudit(gw, 'session_deleted', session.id)).toHaveLength(1);
  });

  it('a session-scoped operator may delete its own session, and then sees nothing', async () => {
    const session = await createSession(gw);
    const key = (await gw.createKey({ name: 'scoped-op', role: 'operator', allowedSessions: [session.id] }))
      .key;
    expect((await gw.request('DELETE', `/api/sessions/${session.id}`, { key })).status).toBe(204);
    expectError(await gw.request('GET', `/api/sessions/${session.id}`, { key }), 404, 'NOT_FOUND');
    expect((await gw.request('GET', '/api/sessions', { key })).body).toEqual([]);
  });
});
