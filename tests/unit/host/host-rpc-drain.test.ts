/**
 * The host RPC server at shutdown (SIGTERM), over real HTTP with the real client: once `stopCommands` is called, a
 * command another host forwards is refused (503 SHUTTING_DOWN, retryable, so the forwarding host leaves it to the
 * queue) rather than run on an engine about to stop; `stopCommands` resolves once the forwarded command under way has
 * finished; other owner-directed calls are still answered.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { type HostRpcTarget, type RunningRpcServer, startRpcServer } from '#host/rpc/rpc-server.js';
import { HttpHostRpcClient } from '#shared/adapters/host-rpc/http-host-rpc-client.js';
import type { SessionCommand } from '#shared/domain/commands.js';
import { silentLogger } from '#shared/ports/logger.port.js';

const TOKEN = 'rpc-token-for-the-drain-test';

describe('host RPC while the host drains', () => {
  let server: RunningRpcServer | null = null;
  afterEach(async () => {
    await server?.close();
  });

  it('stopCommands waits for the forwarded command under way, then refuses the next; other calls go on', async () => {
    const calls: string[] = [];
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const target: HostRpcTarget = {
      call: async (operation) => {
        calls.push(operation);
        if (operation === 'command.run') await gate;
        return null as never;
      },
    };
    const running = await startRpcServer({
      host: target,
      token: TOKEN,
      port: 0,
      bindHost: '127.0.0.1',
      nodeId: 'node-draining',
      logger: silentLogger,
    });
    server = running;
    const client = new HttpHostRpcClient({ token: TOKEN, timeoutMs: 2000 });
    const sessionId = randomUUID();
    const command: SessionCommand = {
      type: 'message.send',
      sessionId,
      messageId: randomUUID(),
      requestedAt: new Date().toISOString(),
    };
    const underWay = client.call(running.url, 'command.run', { sessionId, command });
    while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    let stopped = false;
    const stopping = running.stopCommands().then(() => {
      stopped = true;
    });

    const refused = await client.call(running.url, 'command.run', { sessionId, command }).catch((e) => e);
    expect(refused).toMatchObject({ status: 503, code: 'SHUTTING_DOWN', retryable: true });
    expect(stopped).toBe(false);
    finish();
    await expect(underWay).resolves.toBeNull();
    await stopping;
    await expect(client.call(running.url, 'session.discard', { sessionId })).resolves.toBeNull();
    expect(calls).toEqual(['command.run', 'session.discard']);
  });
});
