/**
 * A scripted local webhook receiver for delivery tests: answers each request with the next status of a list (then
 * 200), records every request (failed attempts too, with their headers and raw body) and verifies each twice, with
 * the `standardwebhooks` package and with the X-Service-Signature HMAC. (webhook-receiver.ts is the one for load and
 * crash tests: random failures, accepted deliveries only.)
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';

/** A whsec_ secret (base64 key material, what the standardwebhooks package generates). */
export const WHSEC_SECRET = `whsec_${Buffer.from('a test key of thirty-two bytes!!').toString('base64')}`;
/** Any other secret: its UTF-8 bytes are the key. */
export const PLAIN_SECRET = 'plain-secret-0123456789';

export interface ScriptedDelivery {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Both signatures checked out against the receiver's secret. */
  verified: boolean;
}

export interface ScriptedReceiver {
  url: string;
  received: ScriptedDelivery[];
  close(): Promise<void>;
}

/** True when the standardwebhooks package and the X-Service-Signature HMAC both accept the delivery. */
export function verifiesBothWays(secret: string, body: string, headers: Record<string, string>): boolean {
  const whsec = secret.startsWith('whsec_');
  try {
    new StandardWebhook(
      whsec ? secret : (Buffer.from(secret, 'utf8') as unknown as string),
      whsec ? undefined : { format: 'raw' },
    ).verify(body, headers);
  } catch {
    return false;
  }
  const key = whsec ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
  return headers['x-service-signature'] === `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

/** Starts a receiver on 127.0.0.1 answering `statuses` in turn (then 200) and verifying with `secret`. */
export async function startScriptedReceiver(
  statuses: number[] = [],
  secret = WHSEC_SECRET,
): Promise<ScriptedReceiver> {
  const received: ScriptedDelivery[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ headers: req.headers, body, verified: verifiesBothWays(secret, body, headers) });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Resolves once `probe` holds (checked every 10 ms), or fails after `ms`. */
export async function until(probe: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
