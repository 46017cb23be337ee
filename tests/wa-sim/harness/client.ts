/**
 * The real Baileys client against a simulator: socket creation with test-friendly settings, and linking by
 * QR (string or PNG data URL) or pairing code through the admin API, including the 515 restart.
 */
import makeWASocket, { type WASocket } from '@whiskeysockets/baileys';
import pino from 'pino';
import QRCode from 'qrcode';
import type { AdminClient } from './admin-client.js';
import { createMemoryAuth, type MemoryAuth } from './memory-auth.js';
import { statusCodeOf, waitForEvent } from './wait.js';

/** The simulator endpoints a client needs. */
export interface SimEndpoints {
  readonly wsUrl: string;
  readonly admin: AdminClient;
}

/** Client options: `inline` lets Baileys wait for the phone's inline history bootstrap (its default). */
export interface ClientOptions {
  readonly history?: 'skip' | 'inline';
  /** Check every app-state patch and snapshot MAC (Baileys checks none by default). */
  readonly verifyAppStateMacs?: boolean;
  /** Called with each socket as it is made, before it connects: listeners that must miss no event. */
  readonly onSocket?: (sock: WASocket) => void;
}

/** A linked, open client. */
export interface LinkedClient {
  readonly sock: WASocket;
  readonly auth: MemoryAuth;
  readonly phone: string;
  readonly jid: string;
}

/** How a connection attempt ended. */
export type Outcome =
  | { readonly connection: 'open' }
  | { readonly connection: 'close'; readonly statusCode?: number };

const logger = pino({ level: 'silent' });

/** Opens a Baileys socket on `auth` against the simulator. */
export function connect(wsUrl: string, auth: MemoryAuth, options: ClientOptions = {}): WASocket {
  const sock = makeWASocket({
    waWebSocketUrl: wsUrl,
    auth: auth.state,
    logger,
    fireInitQueries: false,
    markOnlineOnConnect: false,
    syncFullHistory: false,
    connectTimeoutMs: 10_000,
    ...(options.history === 'inline' ? {} : { shouldSyncHistoryMessage: () => false }),
    ...(options.verifyAppStateMacs ? { appStateMacVerification: { patch: true, snapshot: true } } : {}),
  });
  sock.ev.on('creds.update', auth.saveCreds);
  options.onSocket?.(sock);
  return sock;
}

/** Resolves with the next `open` or `close` of `sock`. */
export function nextOutcome(sock: WASocket, timeoutMs = 15_000): Promise<Outcome> {
  return waitForEvent(
    sock,
    'connection.update',
    (update): Outcome | undefined => {
      if (update.connection === 'open') return { connection: 'open' };
      if (update.connection === 'close') {
        return { connection: 'close', statusCode: statusCodeOf(update.lastDisconnect?.error) };
      }
      return undefined;
    },
    timeoutMs,
  );
}

/** Connects with saved creds and requires the connection to open. */
export async function reconnect(
  wsUrl: string,
  auth: MemoryAuth,
  options: ClientOptions = {},
): Promise<WASocket> {
  const sock = connect(wsUrl, auth, options);
  const outcome = await nextOutcome(sock);
  if (outcome.connection !== 'open') throw new Error(`reconnect closed with ${outcome.statusCode}`);
  return sock;
}

/** Links a fresh client by QR through the admin API, then reconnects after the 515 restart. */
export async function linkByQr(
  sim: SimEndpoints,
  options: ClientOptions & { phone?: string; asDataUrl?: boolean } = {},
): Promise<LinkedClient> {
  const auth = createMemoryAuth();
  const first = connect(sim.wsUrl, auth, options);
  const qr = await waitForEvent(first, 'connection.update', (update) => update.qr);
  const restart = nextOutcome(first);
  const shown = options.asDataUrl ? await QRCode.toDataURL(qr) : qr;
  const linked = await sim.admin.ok<{ phone: string; jid: string }>('/mock-phone/scan-qr', {
    qr: shown,
    phone: options.phone,
  });
  await expectRestart(restart);
  const sock = await reconnect(sim.wsUrl, auth, options);
  return { sock, auth, phone: linked.phone, jid: linked.jid };
}

/** Links a fresh client by pairing code (`requestPairingCode` + the phone typing it), then reconnects. */
export async function linkByCode(
  sim: SimEndpoints,
  phone: string,
  options: ClientOptions = {},
): Promise<LinkedClient> {
  const auth = createMemoryAuth();
  const first = connect(sim.wsUrl, auth, options);
  await waitForEvent(first, 'connection.update', (update) => update.qr);
  const restart = nextOutcome(first);
  const code = await first.requestPairingCode(phone);
  const linked = await sim.admin.ok<{ phone: string; jid: string }>('/mock-phone/pair-code', { phone, code });
  await expectRestart(restart);
  const sock = await reconnect(sim.wsUrl, auth, options);
  return { sock, auth, phone: linked.phone, jid: linked.jid };
}

/** Ends a socket and waits for its close event. */
export async function closeClient(sock: WASocket): Promise<void> {
  const closed = nextOutcome(sock).catch(() => undefined);
  await sock.end(undefined);
  await closed;
}

async function expectRestart(restart: Promise<Outcome>): Promise<void> {
  const outcome = await restart;
  if (outcome.connection !== 'close' || outcome.statusCode !== 515) {
    throw new Error(`expected the 515 restart, got ${JSON.stringify(outcome)}`);
  }
}
