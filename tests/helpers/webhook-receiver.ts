/**
 * A real webhook receiver for tests and benchmarks: an HTTP server that verifies every delivery twice (with the
 * `standardwebhooks` package and with the X-Service-Signature HMAC) and records it. It can be switched to answer
 * 503 (a receiver that is down), or to fail a share of requests and let another share time out (a flaky one).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifiesBothWays } from './scripted-receiver.js';

export interface ReceivedDelivery {
  event: string;
  idempotencyKey: string;
  deliveryId: string;
  retryCount: number;
  /** Both signatures checked out. */
  verified: boolean;
  body: { event: string; sessionId: string; idempotencyKey: string; data: Record<string, unknown> };
  /** When it arrived (ms since the epoch). */
  at: number;
}

export interface ReceiverBehaviour {
  /** Answer 503 to everything. */
  down?: boolean;
  /** Share of requests answered 500 (0–1). */
  failRatio?: number;
  /** Share of requests left unanswered until the sender gives up (0–1). */
  timeoutRatio?: number;
}

export interface WebhookReceiver {
  url: string;
  /** Every delivery answered 2xx, in arrival order. */
  accepted: ReceivedDelivery[];
  /** How many requests arrived in all (refused ones included). */
  requests(): number;
  set(behaviour: ReceiverBehaviour): void;
  /** Accepted deliveries per idempotency key. */
  byKey(): Map<string, ReceivedDelivery[]>;
  close(): Promise<void>;
}

const flatHeaders = (headers: http.IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));

/** Starts a receiver on 127.0.0.1 for deliveries signed with `secret`. */
export async function startWebhookReceiver(secret: string, random = Math.random): Promise<WebhookReceiver> {
  const accepted: ReceivedDelivery[] = [];
  let behaviour: ReceiverBehaviour = {};
  let requests = 0;
  const hung = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests++;
      if (behaviour.down) return void res.writeHead(503).end();
      const roll = random();
      if (roll < (behaviour.timeoutRatio ?? 0)) {
        hung.add(res);
        res.on('close', () => hung.delete(res));
        return;
      }
      if (roll < (behaviour.timeoutRatio ?? 0) + (behaviour.failRatio ?? 0))
        return void res.writeHead(500).end();
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as ReceivedDelivery['body'];
      accepted.push({
        event: String(req.headers['x-service-event']),
        idempotencyKey: String(req.headers['x-service-idempotency-key']),
        deliveryId: String(req.headers['x-service-delivery-id']),
        retryCount: Number(req.headers['x-service-retry-count']),
        verified:
          verifiesBothWays(secret, raw, flatHeaders(req.headers)) &&
          body.idempotencyKey === req.headers['webhook-id'],
        body,
        at: Date.now(),
      });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    accepted,
    requests: () => requests,
    set(next) {
      behaviour = next;
    },
    byKey() {
      const keys = new Map<string, ReceivedDelivery[]>();
      for (const d of accepted) keys.set(d.idempotencyKey, [...(keys.get(d.idempotencyKey) ?? []), d]);
      return keys;
    },
    close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
