/**
 * Shared helpers of the webhook and automation-rule suites: the public shapes (a webhook never shows its secret or
 * custom headers), creation through the API, and a local HTTP receiver that records what it is sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@jest/globals';
import type { ApiResponse, TestGateway } from '#tests/helpers/test-gateway.js';

/** Exactly the fields of a webhook response (openwa-facts §3 "Webhook"). */
export const WEBHOOK_FIELDS = [
  'active',
  'createdAt',
  'events',
  'filters',
  'id',
  'lastTriggeredAt',
  'retryCount',
  'sessionId',
  'updatedAt',
  'url',
];

/** Exactly the fields of an automation rule (openwa-facts §3 "Automation rule"). */
export const RULE_FIELDS = [
  'conditions',
  'cooldownSeconds',
  'createdAt',
  'enabled',
  'id',
  'name',
  'replyText',
  'sessionId',
  'updatedAt',
];

export interface WebhookBody {
  id: string;
  sessionId: string;
  url: string;
  events: string[];
  filters: { conditions: Record<string, unknown>[] } | null;
  active: boolean;
  retryCount: number;
  lastTriggeredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RuleBody {
  id: string;
  sessionId: string;
  name: string;
  enabled: boolean;
  conditions: { conditions: Record<string, unknown>[] } | null;
  replyText: string;
  cooldownSeconds: number;
  createdAt: string;
  updatedAt: string;
}

/** Fails when any object in `value` (a webhook, a list of them) carries `secret` or `headers`. */
export function expectNoWebhookSecrets(value: unknown, where = 'body'): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      expectNoWebhookSecrets(item, `${where}[${i}]`);
    });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    if (key === 'secret' || key === 'headers') throw new Error(`response leaks '${key}' at ${where}`);
  }
}

/** A webhook response: exactly the public fields. */
export function expectWebhookShape(body: unknown): asserts body is WebhookBody {
  expect(Object.keys(body as object).sort()).toEqual(WEBHOOK_FIELDS);
  expectNoWebhookSecrets(body);
}

/**
 * A receiver the suites' gateways allow-list (HOOK_HOST in SSRF_ALLOWED_HOSTS), so registering it needs no DNS;
 * nothing is ever sent there.
 */
export const HOOK_HOST = 'hooks.example.com';
export const HOOK_URL = `https://${HOOK_HOST}/waygate`;

/** Registers a webhook (as the admin unless `key` is given) and answers it; fails unless 201. */
export async function createWebhook(
  gw: TestGateway,
  sessionId: string,
  body: Record<string, unknown> = {},
  key?: string,
): Promise<WebhookBody> {
  const res = await gw.request<WebhookBody>('POST', `/api/sessions/${sessionId}/webhooks`, {
    body: { url: HOOK_URL, ...body },
    ...(key === undefined ? {} : { key }),
  });
  if (res.status !== 201) throw new Error(`webhook create failed: ${res.status} ${res.text}`);
  expectWebhookShape(res.body);
  return res.body;
}

/** Creates an autoreply rule (as the admin) and answers it; fails unless 201. */
export async function createRule(
  gw: TestGateway,
  sessionId: string,
  body: Record<string, unknown> = {},
): Promise<RuleBody> {
  const res = await gw.request<RuleBody>('POST', `/api/sessions/${sessionId}/automation-rules`, {
    body: { name: 'greeting', replyText: 'Thanks, we will answer soon.', ...body },
  });
  if (res.status !== 201) throw new Error(`rule create failed: ${res.status} ${res.text}`);
  expect(Object.keys(res.body).sort()).toEqual(RULE_FIELDS);
  return res.body;
}

/** The ids of a list response, in order. */
export const idsOf = (res: ApiResponse<unknown>): string[] => (res.body as { id: string }[]).map((w) => w.id);

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** The status the next requests are answered with; null: they are never answered. */
  status: number | null;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers `status` (200 until changed). */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const receiver: { status: number | null } = { status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (receiver.status !== null)
        res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        // The gateway's client keeps its socket alive: drop it, or close would wait for its idle timeout.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** A 127.0.0.1 URL nothing listens on (a port bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
