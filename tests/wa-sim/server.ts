/**
 * Starts the simulator: one HTTP server carrying the WhatsApp WebSocket (`/ws/chat`) and the admin API
 * (`/admin/*`), and the HTTPS media host on a port of its own. The connection policy (accept, refuse, delay) is
 * applied at the WebSocket upgrade.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { createAdminHandler } from './admin/admin-api.js';
import { startMediaHost } from './media/media-host.js';
import { attachClient } from './network/dispatch.js';
import { Simulator } from './network/simulator.js';
import { createLogger, type LogLevel, type SimLogger } from './support/log.js';

/** Where and how to run. Port 0 picks a free port. */
export interface SimulatorOptions {
  readonly port?: number;
  readonly host?: string;
  /** Log level when no logger is given (default `warn`). */
  readonly logLevel?: LogLevel;
  readonly logger?: SimLogger;
  /** Port of the HTTPS media host (default 0: a free one). */
  readonly mediaPort?: number;
  /** Bytes of encrypted media kept before the oldest are evicted (default 256 MiB). */
  readonly mediaStoreBytes?: number;
}

/** A running simulator. */
export interface RunningSimulator {
  /** The URL to give clients as `waWebSocketUrl`. */
  readonly wsUrl: string;
  /** Base URL of the admin API (`…/admin`). */
  readonly adminUrl: string;
  /** Base64 of the simulator's root public key; clients must trust it (`trustSimulatorRootKey`). */
  readonly rootKey: string;
  /** The HTTPS media host (`https://127.0.0.1:PORT`); clients learn it from `media_conn`. */
  readonly mediaUrl: string;
  readonly port: number;
  /** The simulated network, for in-process tests that look inside. */
  readonly simulator: Simulator;
  close(): Promise<void>;
}

const WS_PATH = '/ws/chat';

/** Starts a simulator and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const log = options.logger ?? createLogger(options.logLevel ?? 'warn');
  const simulator = new Simulator(log, options.mediaStoreBytes);
  const http = createServer(createAdminHandler(simulator));
  // Clients (fetch) keep admin connections alive; a short server timeout races a busy client's reuse.
  http.keepAliveTimeout = 60_000;
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  wss.on('connection', (socket) => attachClient(simulator, socket));

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://sim').pathname;
    const { mode, delayMs } = simulator.policy;
    if (path !== WS_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    if (mode === 'refuse') {
      // Reset without an HTTP answer: Baileys forwards `unexpected-response` and would hang on a 503.
      log.info('websocket upgrade refused by policy');
      socket.destroy();
      return;
    }
    if (mode === 'delay') setTimeout(() => upgrade(request, socket, head), delayMs);
    else upgrade(request, socket, head);
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const address = http.address();
  if (!address || typeof address === 'string')
    throw new Error('the simulator is not listening on a TCP port');
  const { port } = address;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  simulator.httpBase = base;
  log.info(`listening on ${base}`);
  const media = await startMediaHost(simulator, host, options.mediaPort ?? 0).catch(
    async (error: unknown) => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      throw error;
    },
  );
  return {
    wsUrl: `${base.replace(/^http/, 'ws')}${WS_PATH}`,
    adminUrl: `${base}/admin`,
    rootKey: simulator.rootKeys.public.toString('base64'),
    mediaUrl: `https://${media.hostname}`,
    port,
    simulator,
    close: async () => {
      simulator.closeAll();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await media.close();
    },
  };
}
