/**
 * A delivery as it goes on the wire: the body serialized once, the system headers winning over custom ones, and
 * both signatures verifiable by a receiver with stock tools (the `standardwebhooks` package and a plain HMAC).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import type { GatewayEvent } from '#shared/domain/events.js';
import { deliveryBody, deliveryHeaders, isCustomHeaderAllowed } from '#shared/webhooks/delivery-request.js';
import { eventKey, idempotencyKey } from '#shared/webhooks/idempotency-key.js';
import { messageReceived } from '#tests/helpers/webhook-fixtures.js';

// A body with non-ASCII characters: the signed bytes are its UTF-8 encoding.
const event = { ...messageReceived, data: { ...messageReceived.data, body: 'héllo ✓' } };
const ids = { idempotencyKey: idempotencyKey(event, 'wh1'), deliveryId: 'dlv_1' };
// The package refuses a webhook-timestamp more than five minutes from its own clock: attempts stamp the time they are sent.
const NOW = Math.floor(Date.now() / 1000);

function attempt(secret: string | null, custom: Record<string, string> = {}, n = 1) {
  const body = deliveryBody(event, ids, '2026-11-26T01:00:05.000Z');
  const headers = deliveryHeaders({
    event: event.event,
    ids,
    attempt: n,
    body,
    secret,
    custom,
    version: '1.2.3',
    nowSeconds: NOW,
  });
  return { body, headers };
}

describe('webhook delivery request', () => {
  it('serializes the body with the event, its ids and its data', () => {
    expect(JSON.parse(attempt(null).body)).toEqual({
      event: 'message.received',
      timestamp: '2026-11-26T01:00:05.000Z',
      sessionId: event.sessionId,
      idempotencyKey: ids.idempotencyKey,
      deliveryId: 'dlv_1',
      data: event.data,
    });
  });

  it('a whsec_ secret: the standardwebhooks package verifies the exact body', () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const { body, headers } = attempt(secret);
    const verified = new Webhook(secret).verify(body, headers);
    expect(verified).toEqual(JSON.parse(body));
    expect(headers['webhook-id']).toBe(ids.idempotencyKey);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('any other secret is its UTF-8 bytes, for the package (raw) and for X-Service-Signature', () => {
    const secret = 'a-plain-secret-ü-1234';
    const { body, headers } = attempt(secret);
    expect(new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(body, headers)).toBeTruthy();
    const hex = createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
    expect(headers['X-Service-Signature']).toBe(`sha256=${hex}`);
  });

  it('sends no signature without a secret', () => {
    const { headers } = attempt(null);
    expect(Object.keys(headers).filter((name) => /signature|^webhook-/i.test(name))).toEqual([]);
  });

  it('lets custom headers through but never over the system, signature or hop-by-hop ones', () => {
    const { headers } = attempt('s'.repeat(16), {
      'X-Tenant': 'acme',
      'content-type': 'text/plain',
      'X-Service-Event': 'forged',
      'x-service-anything': 'forged',
      'Webhook-Signature': 'v1,forged',
      'Transfer-Encoding': 'chunked',
      Host: 'evil.example',
    });
    expect(headers['X-Tenant']).toBe('acme');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-Service-Event']).toBe('message.received');
    expect(Object.values(headers)).not.toContain('forged');
    expect(Object.values(headers)).not.toContain('v1,forged');
    expect(Object.keys(headers).map((n) => n.toLowerCase())).not.toContain('transfer-encoding');
    expect(Object.keys(headers).map((n) => n.toLowerCase())).not.toContain('host');
    expect(isCustomHeaderAllowed('X-Request-Source')).toBe(true);
  });

  it('counts retries from 0 and keeps both ids across attempts', () => {
    const first = attempt(null, {}, 1).headers;
    const third = attempt(null, {}, 3).headers;
    expect([first['X-Service-Retry-Count'], third['X-Service-Retry-Count']]).toEqual(['0', '2']);
    expect(third['X-Service-Delivery-Id']).toBe(first['X-Service-Delivery-Id']);
    expect(third['X-Service-Idempotency-Key']).toBe(first['X-Service-Idempotency-Key']);
    expect(first['User-Agent']).toBe('Waygate-Webhook/1.2.3');
  });
});

describe('idempotency keys', () => {
  it('are the same for the same event and differ per webhook', () => {
    expect(idempotencyKey(event, 'wh1')).toBe(idempotencyKey({ ...event }, 'wh1'));
    expect(idempotencyKey(event, 'wh1')).not.toBe(idempotencyKey(event, 'wh2'));
  });

  it('name a message by its network id, whenever it is delivered', () => {
    expect(eventKey(event)).toBe(`msg_${event.sessionId}_3EB0AAAA`);
    expect(eventKey({ ...event, occurredAt: '2030-01-01T00:00:00.000Z' })).toBe(eventKey(event));
  });

  it('tell apart two status changes of a session by their instant', () => {
    const status = (occurredAt: string): GatewayEvent => ({
      event: 'session.status',
      sessionId: 's1',
      occurredAt,
      data: { sessionId: 's1', status: 'ready' },
    });
    expect(eventKey(status('2026-11-26T01:00:00.000Z'))).not.toBe(
      eventKey(status('2026-11-26T02:00:00.000Z')),
    );
  });
});
