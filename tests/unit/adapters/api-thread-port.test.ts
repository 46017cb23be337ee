/**
 * The API thread's port to the host's thread, over a real MessageChannel: operations and engine counts answer as the
 * host does; an AppError comes back with its status and code; a failure that is not one comes back as an unavailable
 * host without its internals; a malformed request is refused, not left waiting; a closed port fails what waits; the
 * host's settled messages reach the API thread's waiting sends.
 */
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { ApiThreadClient } from '#shared/adapters/api-thread/api-thread-client.js';
import { serveApiThread } from '#shared/adapters/api-thread/serve-api-thread.js';
import { ThreadHostGateway } from '#shared/adapters/api-thread/thread-host-gateway.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import type { HostOperation, HostOperationInput } from '#shared/domain/host-operations.js';
import { AppError, SessionStateError } from '#shared/errors/app-error.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { capturingLogger, type LogLine } from '#tests/helpers/capturing-logger.js';

const S1 = '7d8c3a52-4b1e-4f0a-9d2c-1a2b3c4d5e6f';
const M1 = '0b7e4c1d-2f3a-4e5b-8c6d-7e8f9a0b1c2d';
const M2 = '9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f';

type Handler = (operation: HostOperation, input: HostOperationInput<HostOperation>) => Promise<unknown>;

function connect(handler: Handler, logger = silentLogger) {
  const { port1, port2 } = new MessageChannel();
  const calls: { operation: string; input: unknown }[] = [];
  const host: HostGateway = {
    call: async (operation, input) => {
      calls.push({ operation, input });
      return handler(operation, input) as never;
    },
    stats: async (sessionIds) => ({ activeEngines: sessionIds ? sessionIds.length : 7 }),
  };
  const metrics = new Registry();
  // The host thread's outcomes, and the API thread's, fed by what the host pushes.
  const hostOutcomes = new InProcessMessageOutcomes();
  const apiOutcomes = new InProcessMessageOutcomes();
  const serving = serveApiThread(port1, { host, outcomes: hostOutcomes, metrics, logger });
  const client = new ApiThreadClient(port2, (sessionId, messageId) =>
    apiOutcomes.notify(sessionId, messageId),
  );
  return {
    client,
    gateway: new ThreadHostGateway(client),
    calls,
    port1,
    port2,
    serving,
    hostOutcomes,
    apiOutcomes,
  };
}

const opened: { port1: { close(): void }; port2: { close(): void } }[] = [];
afterEach(() => {
  for (const { port1, port2 } of opened.splice(0)) {
    port1.close();
    port2.close();
  }
});
const open = (handler: Handler, logger = silentLogger) => {
  const connection = connect(handler, logger);
  opened.push(connection);
  return connection;
};

describe('the API thread port', () => {
  it('runs an operation on the host with its parsed input and answers its result', async () => {
    const { gateway, calls } = open(async () => ({ settled: true }));
    await expect(
      gateway.call('message.awaitOutcome', { sessionId: S1, messageId: M1, timeoutMs: 50 }),
    ).resolves.toEqual({ settled: true });
    expect(calls).toEqual([
      { operation: 'message.awaitOutcome', input: { sessionId: S1, messageId: M1, timeoutMs: 50 } },
    ]);
  });

  it('answers the engine count, all or of the sessions named', async () => {
    const { gateway } = open(async () => null);
    await expect(gateway.stats()).resolves.toEqual({ activeEngines: 7 });
    await expect(gateway.stats(['a', 'b'])).resolves.toEqual({ activeEngines: 2 });
  });

  it("brings the host's AppError back with its status, code and message", async () => {
    const { gateway } = open(async () => {
      throw new SessionStateError('QR_NOT_AVAILABLE', 'QR code is not ready (session is created)');
    });
    const error = await gateway.call('session.qr', { sessionId: S1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 400,
      code: 'QR_NOT_AVAILABLE',
      message: 'QR code is not ready (session is created)',
    });
  });

  it('answers any other failure as an unavailable host, its details only in the host thread log', async () => {
    const lines: LogLine[] = [];
    const { gateway } = open(async () => {
      throw new Error('secret internals');
    }, capturingLogger(lines));
    const error = await gateway.call('session.stop', { sessionId: S1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'HOST_UNAVAILABLE' });
    expect(String((error as Error).message)).not.toContain('secret');
    expect(lines.some((line) => String((line.fields.err as Error)?.message) === 'secret internals')).toBe(
      true,
    );
  });

  it('refuses an input the operation does not accept, without running it', async () => {
    const { client, calls } = open(async () => null);
    const error = await client
      .request({ kind: 'host.call', operation: 'session.stop', input: { sessionId: 42 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(calls).toEqual([]);
  });

  it('takes a result that is not what the operation answers for an unavailable host, never a 500', async () => {
    const { gateway } = open(async () => ({ settled: 'yes' }));
    await expect(
      gateway.call('message.awaitOutcome', { sessionId: S1, messageId: M1, timeoutMs: 50 }),
    ).rejects.toMatchObject({ status: 503, code: 'HOST_UNAVAILABLE' });
  });

  it('answers a malformed request that carries an id with 400, and leaves it at that', async () => {
    const { port2 } = open(async () => null);
    const answer = new Promise((resolve) => port2.once('message', resolve));
    port2.postMessage({ id: 9, kind: 'host.unknown' });
    await expect(answer).resolves.toMatchObject({ id: 9, ok: false, error: { status: 400 } });
  });

  it('fails what still waits, and what comes after, once the port closes', async () => {
    const { client, gateway } = open(() => new Promise(() => undefined));
    const waiting = gateway.call('session.stop', { sessionId: S1 });
    client.close();
    await expect(waiting).rejects.toMatchObject({ status: 503, code: 'HOST_UNAVAILABLE' });
    await expect(gateway.stats()).rejects.toMatchObject({ code: 'HOST_UNAVAILABLE' });
  });

  it('tells the API thread of every message the host settles, so its waiting send answers', async () => {
    const { hostOutcomes, apiOutcomes } = open(async () => null);
    const waiting = apiOutcomes.settled(S1, M1, 5_000);
    const other = apiOutcomes.settled(S1, M2, 100);
    hostOutcomes.notify(S1, M1);
    await expect(Promise.all([waiting, other])).resolves.toEqual([true, false]);
  });

  it('stops telling once stopped', async () => {
    const { hostOutcomes, apiOutcomes, serving } = open(async () => null);
    serving.stop();
    const waiting = apiOutcomes.settled(S1, M1, 100);
    hostOutcomes.notify(S1, M1);
    await expect(waiting).resolves.toBe(false);
  });
});
