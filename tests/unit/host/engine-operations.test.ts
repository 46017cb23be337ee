/**
 * Every engine operation row through the host, generated from the rows: the host RPC carries its example both ways
 * (the real server and client over fetch) and refuses what its schemas refuse in either direction; the host's one
 * dispatch reaches the engine's port through the session's runner, and answers a session whose engine is not
 * running, or not ready, as the row's policy says.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { engineOperations } from '#host/operations/engine-operations.js';
import { type HostRpcTarget, type RunningRpcServer, startRpcServer } from '#host/rpc/rpc-server.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import { type EngineOperationRow, portOf } from '#shared/domain/engine-operations/engine-operation.js';
import {
  ENGINE_OPERATION_ROWS,
  ENGINE_OPERATIONS,
  type EngineOperationName,
} from '#shared/domain/engine-operations/engine-operations.js';
import type { Session } from '#shared/domain/session.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import { type DraftFiles, readMediaFile } from '#shared/use-cases/messages/draft-media.js';
import { aSession } from '#tests/helpers/builders.js';

const TOKEN = 'engine-operations-rpc-token';
const rows = ENGINE_OPERATION_ROWS.map((row) => [row.name as EngineOperationName, row] as const);
const sessionId = randomUUID();

describe('engine operations over the host RPC', () => {
  let server: RunningRpcServer;
  let answer: (operation: string, input: unknown) => unknown;
  const calls: { operation: string; input: unknown }[] = [];
  const client = new HttpHostRpcClient({ token: TOKEN, timeoutMs: 2000 });
  const target: HostRpcTarget = {
    call: async (operation, input) => {
      calls.push({ operation, input });
      return answer(operation, input) as never;
    },
  } as HostRpcTarget;

  beforeEach(async () => {
    calls.length = 0;
    server = await startRpcServer({
      host: target,
      token: TOKEN,
      port: 0,
      bindHost: '127.0.0.1',
      nodeId: 'rows',
      logger: silentLogger,
    });
  });
  afterEach(async () => {
    await server.close();
  });

  it.each(rows)('%s carries its example input and result', async (name, row) => {
    answer = () => row.example.result;
    const input = { sessionId, ...row.example.input };
    await expect(client.call(server.url, name, input as never)).resolves.toEqual(row.example.result);
    expect(calls).toEqual([{ operation: name, input }]);
  });

  it.each(rows)(
    '%s: an input with a field its row does not take is 400, the host never called',
    async (name, row) => {
      const response = await fetch(`${server.url}/rpc`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ operation: name, input: { sessionId, ...row.example.input, stray: 1 } }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
      expect(calls).toEqual([]);
    },
  );

  it.each(rows)('%s: a result its row does not describe is refused by the client', async (name, row) => {
    answer = () => ({ unexpected: true });
    const input = { sessionId, ...row.example.input };
    await expect(client.call(server.url, name, input as never)).rejects.toMatchObject({
      code: 'HOST_UNAVAILABLE',
    });
  });
});

describe("the host's dispatch of engine operations", () => {
  const session = aSession({ id: sessionId, status: 'ready' });
  const stored = new Map<string, Session>([[sessionId, session]]);
  const runner = (state: { live: boolean; ready: boolean; port: unknown }) =>
    ({
      hasLiveEngine: state.live,
      isReady: state.ready,
      port: () => state.port,
    }) as unknown as SessionRunner;
  const fetched: string[] = [];
  const files: DraftFiles = {
    media: { maxBytes: 1024 } as MediaStorage,
    fetcher: {
      fetch: async (url) => {
        fetched.push(url);
        return { ok: true, bytes: new Uint8Array([0xff, 0xd8, 0xff]), contentType: 'image/jpeg' };
      },
    },
    fetchTimeoutMs: 1000,
  };
  const dispatch = (found: SessionRunner | undefined, withFiles: DraftFiles | null = files) =>
    engineOperations({
      kind: 'test',
      sessions: { findById: async (id) => stored.get(id) ?? null },
      runnerOf: () => found,
      files: withFiles ?? undefined,
    });
  /** What the engine gets for `input`: the input, or what the row's toEngine makes of it with `files`. */
  const engineInputOf = (row: EngineOperationRow, input: Record<string, unknown>) =>
    row.toEngine
      ? row.toEngine(input, {
          read: (kind, source, mimetype) => readMediaFile(files, kind, source, mimetype),
        })
      : input;

  it.each(rows)('%s calls its method on the ready engine’s port with the input', async (name, row) => {
    const received: unknown[] = [];
    const port = {
      [row.method]: async (input: unknown) => {
        received.push(input);
        return row.example.result;
      },
    };
    const handler = dispatch(runner({ live: true, ready: true, port }))[name];
    await expect(handler({ sessionId, ...row.example.input } as never)).resolves.toEqual(row.example.result);
    expect(received).toEqual([await engineInputOf(row, row.example.input)]);
    expect(portOf(row)).toBeDefined();
  });

  it.each(rows)('%s with no runner answers the row’s not-running policy', async (name) => {
    await expect(dispatch(undefined)[name]({ sessionId } as never)).rejects.toMatchObject({
      status: 400,
      code: 'SESSION_NOT_READY',
    });
  });

  it.each(rows)('%s on an engine that is connecting, not ready, is 400 SESSION_NOT_READY', async (name) => {
    stored.set(sessionId, { ...session, status: 'authenticating' });
    const handler = dispatch(runner({ live: true, ready: false, port: {} }))[name];
    await expect(handler({ sessionId } as never)).rejects.toMatchObject({ code: 'SESSION_NOT_READY' });
    stored.set(sessionId, session);
  });

  it.each(rows)('%s of a deleted session is 404', async (name) => {
    const handler = dispatch(undefined)[name];
    await expect(handler({ sessionId: randomUUID() } as never)).rejects.toMatchObject({ status: 404 });
  });

  it('hands a group picture given by URL to the engine as the bytes the fetcher brought', async () => {
    const received: unknown[] = [];
    const port = {
      setPicture: async (input: unknown) => {
        received.push(input);
        return { success: true, message: 'Group picture updated' };
      },
    };
    const handler = dispatch(runner({ live: true, ready: true, port }))['groups.setPicture'];
    const groupId = '120363025246125411@g.us';
    await handler({ sessionId, groupId, url: 'https://pictures.example/team.jpg' });
    expect(fetched).toEqual(['https://pictures.example/team.jpg']);
    expect(received).toEqual([
      { groupId, image: { bytes: new Uint8Array([0xff, 0xd8, 0xff]), mimetype: 'image/jpeg' } },
    ]);
  });

  it('refuses a row that reads a file on a host without files (503), the engine never called', async () => {
    const port = { setPicture: jest.fn() };
    const { input } = ENGINE_OPERATIONS['groups.setPicture'].example;
    const handler = dispatch(runner({ live: true, ready: true, port }), null)['groups.setPicture'];
    await expect(handler({ sessionId, ...input })).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
    expect(port.setPicture).not.toHaveBeenCalled();
  });
});
