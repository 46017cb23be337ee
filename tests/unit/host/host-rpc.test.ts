/**
 * The host RPC transport end to end: the real RPC server on an ephemeral port and the real HTTP client over real
 * fetch. Only the target behind the server is a fake, so every assertion is about what crosses the wire.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type HostRpcTarget, type RunningRpcServer, startRpcServer } from '#host/rpc/rpc-server.js';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import type { SessionCommand } from '#shared/domain/commands.js';
import { ENGINE_OPERATION_ROWS } from '#shared/domain/engine-operations/engine-operations.js';
import type { HostOperation, HostOperationInput } from '#shared/domain/host-operations.js';
import {
  AppError,
  ConflictError,
  IncompleteOperationError,
  SessionStateError,
} from '#shared/errors/app-error.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aSession } from '#tests/helpers/builders.js';

const TOKEN = 'rpc-token-for-tests';
const NODE_ID = 'node-under-test';

/** Records every call and answers canned results, or rejects with `failure` when a test sets one. */
class FakeTarget implements HostRpcTarget {
  readonly calls: { operation: string; input: unknown }[] = [];
  failure: unknown = null;
  readonly session = aSession({ status: 'disconnected' });

  private readonly answers: Record<HostOperation, unknown> = {
    'session.stop': this.session,
    'session.logout': this.session,
    'session.forceKill': this.session,
    'session.qr': { qr: 'qr-payload', status: 'qr_ready' },
    'session.pairingCode': { pairingCode: 'WG123456', status: 'qr_ready' },
    'session.discard': null,
    'message.awaitOutcome': { settled: true },
    'command.run': null,
    ...Object.fromEntries(ENGINE_OPERATION_ROWS.map((row) => [row.name, row.example.result])),
  } as Record<HostOperation, unknown>;

  call: HostRpcTarget['call'] = (operation, input) => {
    this.calls.push({ operation, input });
    return this.failure === null
      ? Promise.resolve(this.answers[operation] as never)
      : Promise.reject(this.failure);
  };
}

/** A bare node:http server for the client's "not a host" cases; `handler` decides how (or whether) to answer. */
async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('host RPC over HTTP', () => {
  let target: FakeTarget;
  let server: RunningRpcServer;
  let client: HttpHostRpcClient;
  const sessionId = randomUUID();

  beforeEach(async () => {
    target = new FakeTarget();
    server = await startRpcServer({
      host: target,
      token: TOKEN,
      port: 0,
      bindHost: '127.0.0.1',
      nodeId: NODE_ID,
      logger: silentLogger,
    });
    client = new HttpHostRpcClient({ token: TOKEN, timeoutMs: 2000 });
  });
  afterEach(async () => {
    await server.close();
  });

  /** A raw request, for what the client never sends (bad tokens, bad bodies, other paths). */
  async function raw(
    path: string,
    init: { method?: string; body?: string; token?: string | null } = {},
  ): Promise<{ status: number; text: string; body: any }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const token = init.token === undefined ? TOKEN : init.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${server.url}${path}`, {
      method: init.method ?? 'POST',
      headers,
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) };
  }

  describe('each operation round-trips its parsed input and result', () => {
    it.each(['session.stop', 'session.logout', 'session.forceKill'] as const)(
      '%s answers the session row',
      async (operation) => {
        await expect(client.call(server.url, operation, { sessionId })).resolves.toEqual(target.session);
        expect(target.calls).toEqual([{ operation, input: { sessionId } }]);
      },
    );

    it.each<[HostOperation, HostOperationInput<HostOperation>, unknown]>([
      ['session.qr', { sessionId }, { qr: 'qr-payload', status: 'qr_ready' }],
      [
        'session.pairingCode',
        { sessionId, phone: '4915112345678' },
        { pairingCode: 'WG123456', status: 'qr_ready' },
      ],
      ['session.discard', { sessionId }, null],
    ])('%s answers its result', async (operation, input, result) => {
      await expect(client.call(server.url, operation, input as never)).resolves.toEqual(result);
      expect(target.calls).toEqual([{ operation, input }]);
    });

    it('command.run hands the parsed command to the host', async () => {
      const command: SessionCommand = {
        type: 'message.send',
        sessionId,
        messageId: randomUUID(),
        requestedAt: new Date().toISOString(),
      };
      await expect(client.call(server.url, 'command.run', { sessionId, command })).resolves.toBeNull();
      expect(target.calls).toEqual([{ operation: 'command.run', input: { sessionId, command } }]);
    });
  });

  describe("the target's AppError arrives with its status, code, retryability and details", () => {
    it.each([
      [
        '400 SESSION_NOT_STARTED',
        new SessionStateError('SESSION_NOT_STARTED', 'Session is not started'),
        false,
      ],
      [
        '502 SESSION_STOP_INCOMPLETE',
        new IncompleteOperationError('SESSION_STOP_INCOMPLETE', 'The engine did not stop; retry'),
        true,
      ],
      [
        '409 SESSION_BUSY with details',
        new ConflictError('SESSION_BUSY', 'busy', { retryable: true, details: { status: 'ready' } }),
        true,
      ],
    ])('%s', async (_, thrown, retryable) => {
      target.failure = thrown;
      const error = await client.call(server.url, 'session.stop', { sessionId }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        status: thrown.status,
        code: thrown.code,
        message: thrown.message,
        retryable,
        details: thrown.details,
      });
    });
  });

  it('a non-AppError from the target is a bare 500 without its message or stack', async () => {
    target.failure = new Error('secret internals at /srv/waygate/host.ts:42');
    const answer = await raw('/rpc', {
      body: JSON.stringify({ operation: 'session.stop', input: { sessionId } }),
    });
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      error: { status: 500, code: 'INTERNAL', message: 'Internal error', retryable: false },
    });
    expect(answer.text).not.toMatch(/secret|host\.ts|stack/);
    // The client rebuilds it like any other host error.
    await expect(client.call(server.url, 'session.stop', { sessionId })).rejects.toMatchObject({
      status: 500,
      code: 'INTERNAL',
    });
  });

  describe('authentication', () => {
    it('a wrong token is 401 UNAUTHORIZED and the target is never called', async () => {
      const wrong = new HttpHostRpcClient({ token: `${TOKEN}-not`, timeoutMs: 2000 });
      await expect(wrong.call(server.url, 'session.stop', { sessionId })).rejects.toMatchObject({
        status: 401,
        code: 'UNAUTHORIZED',
      });
      expect(target.calls).toEqual([]);
    });

    it('a missing bearer credential is 401', async () => {
      const answer = await raw('/rpc', {
        token: null,
        body: JSON.stringify({ operation: 'session.stop', input: { sessionId } }),
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('UNAUTHORIZED');
      expect(target.calls).toEqual([]);
    });

    it('an empty token never matches, even against a server configured with one', async () => {
      const answer = await raw('/rpc', {
        token: '',
        body: JSON.stringify({ operation: 'session.stop', input: { sessionId } }),
      });
      expect(answer.status).toBe(401);
    });
  });

  describe('bad requests never reach the target', () => {
    afterEach(() => {
      expect(target.calls).toEqual([]);
    });

    it('malformed JSON is 400 INVALID_JSON', async () => {
      const answer = await raw('/rpc', { body: '{"op":"stop",' });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('INVALID_JSON');
    });

    it.each<[string, unknown]>([
      ['an unknown operation', { operation: 'session.reboot', input: { sessionId } }],
      ['a sessionId that is not a uuid', { operation: 'session.stop', input: { sessionId: 'not-a-uuid' } }],
      ['a stray input field', { operation: 'session.stop', input: { sessionId, extra: true } }],
      ['a stray envelope field', { operation: 'session.stop', input: { sessionId }, extra: true }],
      ['a pairing request without a phone', { operation: 'session.pairingCode', input: { sessionId } }],
      [
        'a command that is not a session command',
        { operation: 'command.run', input: { sessionId, command: { type: 'session.delete' } } },
      ],
    ])('%s is 400 VALIDATION_FAILED', async (_, body) => {
      const answer = await raw('/rpc', { body: JSON.stringify(body) });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
    });

    it('a body over 8 MiB is 413 PAYLOAD_TOO_LARGE', async () => {
      const body = JSON.stringify({
        operation: 'session.stop',
        input: { sessionId },
        pad: 'x'.repeat(8 * 1024 * 1024 + 1),
      });
      const answer = await raw('/rpc', { body });
      expect(answer.status).toBe(413);
      expect(answer.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('a 12 MB body is 413 too, and leaves no stalled connection that keeps the server from closing', async () => {
      // Far past the socket buffers: a server that stops reading at the limit leaves the client mid-upload on a
      // connection that never goes idle, so close() (host shutdown) would wait on it.
      const body = JSON.stringify({
        operation: 'session.stop',
        input: { sessionId },
        pad: 'x'.repeat(12 * 1024 * 1024),
      });
      const answer = await raw('/rpc', { body });
      expect(answer.status).toBe(413);
      await server.close();
    });
  });

  it('GET /healthz answers without a token', async () => {
    const answer = await raw('/healthz', { method: 'GET', token: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, nodeId: NODE_ID });
  });

  it.each([
    ['GET', '/rpc'],
    ['POST', '/rpc/stop'],
    ['POST', '/healthz'],
  ])('%s %s is 404', async (method, path) => {
    const answer = await raw(path, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ROUTE_NOT_FOUND');
    expect(target.calls).toEqual([]);
  });
});

/** Answers like something in front of a host (a proxy's error page), not like a host. */
const answering =
  (status: number, type: string, body: string): http.RequestListener =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

describe('HttpHostRpcClient: no usable answer is HOST_UNAVAILABLE (503, retryable)', () => {
  const sessionId = randomUUID();

  it.each<[string, http.RequestListener | 'closed', number]>([
    ['nothing listens on the port', 'closed', 2000],
    [
      'a proxy answers an HTML 502',
      answering(502, 'text/html', '<html><body>Bad Gateway</body></html>'),
      2000,
    ],
    ['a 200 whose result is not the op’s', answering(200, 'application/json', '{"result":{"id":"x"}}'), 2000],
    ['a JSON error that is not a host error', answering(404, 'application/json', '{"message":"nope"}'), 2000],
    ['the host does not answer within timeoutMs', () => undefined, 100],
  ])('%s', async (_, handler, timeoutMs) => {
    const peer = await listen(handler === 'closed' ? () => undefined : handler);
    if (handler === 'closed') await peer.close();
    try {
      const client = new HttpHostRpcClient({ token: TOKEN, timeoutMs });
      await expect(client.call(peer.url, 'session.stop', { sessionId })).rejects.toMatchObject({
        status: 503,
        code: 'HOST_UNAVAILABLE',
        retryable: true,
      });
    } finally {
      await peer.close();
    }
  });
});
