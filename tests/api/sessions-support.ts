/**
 * Shared helpers of the /api/sessions black-box suites: error-body and secret-leak assertions, audit polling,
 * event recording and QR decoding. Everything goes through HTTP or the TestNetwork; nothing reads the stores.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import { expect } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import {
  type ApiResponse,
  sessionName,
  type TestGateway,
  WAIT_MS,
  waitFor,
} from '#tests/helpers/test-gateway.js';

export interface SessionBody {
  id: string;
  name: string;
  status: string;
  phone: string | null;
  pushName: string | null;
  connectedAt: string | null;
  lastActive: string | null;
  createdAt: string;
  updatedAt: string;
  lastError: string | null;
}

export interface AuditRow {
  action: string;
  severity: string;
  sessionId: string | null;
  sessionName: string | null;
  apiKeyId: string | null;
  statusCode: number | null;
  errorMessage: string | null;
  metadata: Record<string, unknown> | null;
}

/** Exactly the public session fields of the spec. */
export const SESSION_FIELDS = [
  'connectedAt',
  'createdAt',
  'id',
  'lastActive',
  'lastError',
  'name',
  'phone',
  'pushName',
  'status',
  'updatedAt',
];

const SECRET_KEYS = new Set([
  'config',
  'proxyUrl',
  'proxyType',
  'nodeId',
  'nodeUrl',
  'claimedAt',
  'leaseExpiresAt',
]);

/** Fails when any object in `value` carries a secret or ownership field. */
export function expectNoSecrets(value: unknown, where = 'body'): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      expectNoSecrets(item, `${where}[${i}]`);
    });
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (SECRET_KEYS.has(key)) throw new Error(`response leaks '${key}' at ${where}`);
      expectNoSecrets(inner, `${where}.${key}`);
    }
  }
}

/** A session response: exactly the public fields, nothing secret. */
export function expectSessionShape(body: unknown): asserts body is SessionBody {
  expect(Object.keys(body as object).sort()).toEqual(SESSION_FIELDS);
  expectNoSecrets(body);
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  code: string;
  retryable?: boolean;
  details?: { path: string; message: string }[];
}

/** The gateway's error body: `{statusCode, error, message, code, retryable?, details?}`; answers it. */
export function expectError(res: ApiResponse<unknown>, status: number, code: string): ErrorBody {
  const body = res.body as ErrorBody;
  if (res.status !== status || body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  expect(body).toMatchObject({ statusCode: status, error: STATUS_CODES[status], code });
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  for (const key of Object.keys(body)) {
    expect(['statusCode', 'error', 'message', 'code', 'retryable', 'details']).toContain(key);
  }
  expectNoSecrets(body);
  return body;
}

/** A 400 validation failure naming the offending input path (e.g. `body.name`). */
export function expectValidation(res: ApiResponse<unknown>, path: string): void {
  const body = expectError(res, 400, 'VALIDATION_FAILED');
  const paths = (body.details ?? []).map((d) => d.path);
  expect(paths).toContain(path);
}

/** A random uuid no session has. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** The routes that act on one session, as `[method, path suffix]`. */
export const SESSION_ID_ROUTES: readonly (readonly [string, string])[] = [
  ['GET', ''],
  ['DELETE', ''],
  ['POST', '/start'],
  ['POST', '/stop'],
  ['POST', '/logout'],
  ['POST', '/force-kill'],
  ['GET', '/qr'],
];

export async function createSession(
  gw: TestGateway,
  body: Record<string, unknown> = {},
  key?: string,
): Promise<SessionBody> {
  const res = await gw.request<SessionBody>('POST', '/api/sessions', {
    body: { name: sessionName(), ...body },
    ...(key === undefined ? {} : { key }),
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function getSession(gw: TestGateway, id: string): Promise<SessionBody> {
  const res = await gw.request<SessionBody>('GET', `/api/sessions/${id}`);
  if (res.status !== 200) throw new Error(`get failed: ${res.status} ${res.text}`);
  expectSessionShape(res.body);
  return res.body;
}

/** Polls until the session has `status` (and, optionally, satisfies `extra`). */
export function waitForSession(
  gw: TestGateway,
  id: string,
  status: string,
  extra: (s: SessionBody) => boolean = () => true,
  timeoutMs = WAIT_MS,
): Promise<SessionBody> {
  return waitFor(async () => {
    const s = await getSession(gw, id);
    return s.status === status && extra(s) ? s : null;
  }, timeoutMs);
}

/** POST start and wait for `status` (qr_ready for a new device, ready with stored credentials). */
export async function startTo(
  gw: TestGateway,
  id: string,
  status: 'qr_ready' | 'ready',
): Promise<SessionBody> {
  const res = await gw.request('POST', `/api/sessions/${id}/start`);
  if (res.status !== 200) throw new Error(`start failed: ${res.status} ${res.text}`);
  return waitForSession(gw, id, status);
}

/** Creates, starts and links a session (scan as the phone) and waits for ready. */
export async function readySession(
  gw: TestGateway,
  body: Record<string, unknown> = {},
  identity = { phone: '15550001111', pushName: 'Alice' },
): Promise<SessionBody> {
  const session = await createSession(gw, body);
  await startTo(gw, session.id, 'qr_ready');
  gw.network.scanQr(session.id, identity);
  return waitForSession(gw, session.id, 'ready');
}

/**
 * A session whose device was linked earlier: the network already holds its credentials, so start logs straight in
 * without a QR (the QR flow itself is covered by the lifecycle suite; rendering a QR is slow under jest).
 */
export async function linkedSession(
  gw: TestGateway,
  body: Record<string, unknown> = {},
  identity = { phone: '15550001111', pushName: 'Alice' },
): Promise<SessionBody> {
  const session = await createSession(gw, body);
  gw.network.storeCredentials(session.id, identity);
  // The row says `ready` a moment before its events are published (the status, then session.authenticated): wait
  // for both, so that a recorder the test starts next never hears this link's last events.
  const recorder = recordEvents(gw, session.id);
  try {
    const ready = await startTo(gw, session.id, 'ready');
    await recorder.reached(['ready']);
    await waitFor(() => recorder.names().includes('session.authenticated'), 3000);
    return ready;
  } finally {
    recorder.stop();
  }
}

/** Audit entries for one action and session (admin key), newest first. */
export async function auditOf(gw: TestGateway, action: string, sessionId: string): Promise<AuditRow[]> {
  const res = await gw.request<{ data: AuditRow[]; total: number }>(
    'GET',
    `/api/audit?action=${action}&sessionId=${sessionId}`,
  );
  if (res.status !== 200) throw new Error(`audit query failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Waits until at least `count` entries of `action` exist for the session (audit writes are batched). */
export function waitForAudit(
  gw: TestGateway,
  action: string,
  sessionId: string,
  count = 1,
): Promise<AuditRow[]> {
  return waitFor(async () => {
    const rows = await auditOf(gw, action, sessionId);
    return rows.length >= count ? rows : null;
  });
}

/** Lets every earlier audit batch land, then answers what is stored (for asserting an absence). */
export async function settledAudit(gw: TestGateway, action: string, sessionId: string): Promise<AuditRow[]> {
  // A marker written after the action under test (a refused key is audited with the path's session id); batches
  // are flushed in order, so once the marker is visible every earlier entry is too.
  const marker = randomUUID();
  const refused = await gw.request('GET', `/api/sessions/${marker}`, { key: 'wg_not_a_key' });
  expect(refused.status).toBe(401);
  await waitForAudit(gw, 'api_key_auth_failed', marker);
  return auditOf(gw, action, sessionId);
}

/** Records the gateway's events (and session.status transitions) for one session. */
export function recordEvents(gw: TestGateway, sessionId: string) {
  const events: (GatewayEvent & { at: number })[] = [];
  const unsubscribe = gw.gateway.events.subscribe((event) => {
    // When it happened, not when it was heard: api-aws publishes after a DynamoDB write, a varying delay.
    if (event.sessionId === sessionId) events.push({ ...event, at: Date.parse(event.occurredAt) });
  });
  const statuses = () =>
    events.flatMap((e) => (e.event === 'session.status' ? [(e.data as { status: string }).status] : []));
  return {
    events,
    names: () => events.map((e) => e.event),
    statuses,
    /**
     * Waits until the statuses heard end with `last` (a row is written before its event is published, so the API
     * can answer a status the recorder has not heard yet), then answers every status heard.
     */
    async reached(last: readonly string[], timeoutMs = WAIT_MS): Promise<string[]> {
      const endsWith = () => {
        const heard = statuses();
        return (
          heard.length >= last.length && last.every((s, i) => heard[heard.length - last.length + i] === s)
        );
      };
      await waitFor(endsWith, timeoutMs).catch(() => undefined);
      return statuses();
    },
    stop: unsubscribe,
  };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface DecodedPng {
  width: number;
  height: number;
  data: Buffer;
}
// Both are CommonJS without ESM typings that NodeNext accepts as a default import.
const require = createRequire(import.meta.url);
const { PNG } = require('pngjs') as { PNG: { sync: { read(buffer: Buffer): DecodedPng } } };
const jsQR = require('jsqr') as typeof import('jsqr').default;

/** Checks a `data:image/png;base64,` URL holds a real PNG and answers the text its QR code encodes. */
export function decodeQrDataUrl(dataUrl: string): string {
  expect(dataUrl).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  const bytes = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
  expect(bytes.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
  const image = PNG.sync.read(bytes);
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!code) throw new Error('the PNG does not contain a readable QR code');
  return code.data;
}
