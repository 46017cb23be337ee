/**
 * The host's RPC API (multi-node mode): functions and other hosts send owner-directed calls here, at this host's
 * advertised nodeUrl. Every call carries HOST_RPC_TOKEN as a bearer credential, compared in constant time; the body
 * is parsed with the protocol's zod schema; an AppError travels back serialised with its status and code, and
 * anything else is a bare 500 with no internals. `GET /healthz` answers without the token (container checks).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Host } from '#host/host.js';
import {
  HOST_HEALTH_PATH,
  HOST_RPC_PATH,
  HostRpcRequest,
  parseOperationInput,
} from '#shared/domain/host-rpc.js';
import {
  AppError,
  NotFoundError,
  PayloadTooLargeError,
  serializeAppError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
} from '#shared/errors/app-error.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { constantTimeEquals } from '#shared/security/secrets.js';

/** What the RPC server calls: the host's owner-directed operations. */
export type HostRpcTarget = Pick<Host, 'call'>;

/**
 * Calls are a few hundred bytes, except an operation that carries its file (a group's picture in base64): a function
 * forwards at most Lambda's 6 MB request, which this holds with room. Only a caller that showed the token gets here.
 */
const BODY_LIMIT = 8 * 1024 * 1024;

export interface RpcServerOptions {
  host: HostRpcTarget;
  token: string;
  port: number;
  bindHost: string;
  nodeId: string;
  logger: Logger;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even past the limit: refusing mid-upload would leave the peer stuck writing.
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= BODY_LIMIT) chunks.push(chunk as Buffer);
  }
  if (size > BODY_LIMIT) throw new PayloadTooLargeError(BODY_LIMIT);
  return Buffer.concat(chunks).toString('utf8');
}

function bearer(req: http.IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice(7) : '';
}

export interface RunningRpcServer {
  url: string;
  /**
   * Shutdown, before the engines stop: commands other hosts forward are refused from now on (503 SHUTTING_DOWN,
   * retryable: the forwarding host leaves them to the queue, and they run once the session has moved) rather than
   * failed by an engine going away under them; resolves once the forwarded commands under way have finished.
   */
  stopCommands(): Promise<void>;
  close(): Promise<void>;
}

export async function startRpcServer(options: RpcServerOptions): Promise<RunningRpcServer> {
  let refuseCommands = false;
  const commandsUnderWay = new Set<Promise<unknown>>();
  const dispatch = async (req: http.IncomingMessage): Promise<unknown> => {
    if (!constantTimeEquals(bearer(req), options.token))
      throw new UnauthorizedError('Invalid host RPC token');
    let raw: unknown;
    try {
      raw = JSON.parse(await readBody(req));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new ValidationError('Body is not JSON', { code: 'INVALID_JSON' });
    }
    const envelope = HostRpcRequest.safeParse(raw);
    if (!envelope.success)
      throw new ValidationError('Not a host RPC request', { details: envelope.error.issues });
    const { operation } = envelope.data;
    const command = operation === 'command.run';
    if (command && refuseCommands)
      throw new UnavailableError(
        'SHUTTING_DOWN',
        `Host ${options.nodeId} is shutting down; the command is retried`,
      );
    const run = options.host.call(operation, parseOperationInput(operation, envelope.data.input));
    if (!command) return run;
    commandsUnderWay.add(run);
    return run.finally(() => commandsUnderWay.delete(run));
  };

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === HOST_HEALTH_PATH) {
      send(200, { ok: true, nodeId: options.nodeId });
      return;
    }
    if (req.method !== 'POST' || req.url !== HOST_RPC_PATH) {
      send(404, { error: serializeAppError(new NotFoundError('Not found', { code: 'ROUTE_NOT_FOUND' })) });
      return;
    }
    dispatch(req).then(
      (result) => send(200, { result }),
      (error: unknown) => {
        if (error instanceof AppError) {
          send(error.status, { error: serializeAppError(error) });
          return;
        }
        options.logger.error({ err: error }, 'host RPC failed');
        send(500, { error: { status: 500, code: 'INTERNAL', message: 'Internal error', retryable: false } });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.bindHost, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async stopCommands() {
      refuseCommands = true;
      while (commandsUnderWay.size > 0) await Promise.allSettled([...commandsUnderWay]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
