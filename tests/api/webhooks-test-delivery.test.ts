/**
 * POST /api/sessions/{sessionId}/webhooks/{id}/test against a real local receiver (127.0.0.1, allowed through
 * SSRF_ALLOWED_HOSTS): the test payload goes out shaped, headed and signed like a real delivery (verified with the
 * `standardwebhooks` package), and whatever the receiver does — 2xx, 5xx, a redirect, no answer, no listener, a URL
 * the guard no longer allows — the route answers 200 with the outcome.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { createSession, expectError, type SessionBody } from './sessions-support.js';
import {
  closedPortUrl,
  createWebhook,
  type Receiver,
  startReceiver,
  type WebhookBody,
} from './webhooks-support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WEBHOOK_TIMEOUT_MS = 1500;

describe('POST /api/sessions/{sessionId}/webhooks/{id}/test', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let session: SessionBody;

  beforeAll(async () => {
    gw = await startTestGateway({
      SSRF_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_TIMEOUT: String(WEBHOOK_TIMEOUT_MS),
    });
    receiver = await startReceiver();
    session = await createSession(gw);
  });
  afterAll(async () => {
    await receiver.close();
    await gw.close();
  });

  const test = (webhook: WebhookBody, sessionId = session.id) =>
    gw.request('POST', `/api/sessions/${sessionId}/webhooks/${webhook.id}/test`);
  /** The requests the receiver got while `act` ran. */
  async function receivedDuring(act: () => Promise<unknown>) {
    const before = receiver.received.length;
    await act();
    return receiver.received.slice(before);
  }

  it('a 2xx answer is {success: true, statusCode}; the payload is a signed test delivery', async () => {
    receiver.status = 200;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const webhook = await createWebhook(gw, session.id, {
      url: `${receiver.url}?source=waygate`,
      secret,
      headers: { 'X-Custom': 'custom value', 'X-Service-Event': 'forged', 'User-Agent': 'forged' },
    });
    let res: Awaited<ReturnType<typeof test>> | undefined;
    const [request] = await receivedDuring(async () => {
      res = await test(webhook);
    });
    expect(res?.status).toBe(200);
    expect(res?.body).toEqual({ success: true, statusCode: 200 });
    if (!request) throw new Error('the receiver got nothing');

    expect(request).toMatchObject({ method: 'POST', path: '/hooks?source=waygate' });
    const version = (await gw.request('GET', '/api/health')).body.version as string;
    const headers = request.headers;
    const deliveryId = String(headers['x-service-delivery-id']);
    expect(deliveryId).toMatch(/^dlv_/);
    expect(deliveryId.slice(4)).toMatch(UUID);
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': `Waygate-Webhook/${version}`,
      'x-service-event': 'test',
      'x-service-retry-count': '0',
      'x-service-idempotency-key': `test_${deliveryId}_${webhook.id}`,
      'x-custom': 'custom value',
      'webhook-id': `test_${deliveryId}_${webhook.id}`,
    });
    const payload = JSON.parse(request.body);
    expect(payload).toEqual({
      event: 'test',
      timestamp: expect.any(String),
      sessionId: session.id,
      idempotencyKey: `test_${deliveryId}_${webhook.id}`,
      deliveryId,
      data: expect.objectContaining({ webhookId: webhook.id }),
    });
    expect(Math.abs(Date.parse(payload.timestamp) - Date.now())).toBeLessThan(60_000);
    const flat = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
    expect(new StandardWebhook(secret).verify(request.body, flat)).toEqual(payload);
    expect(() => new StandardWebhook(secret).verify(`${request.body} `, flat)).toThrow();
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(headers['x-service-signature']).toBe(
      `sha256=${createHmac('sha256', key).update(request.body).digest('hex')}`,
    );
  });

  it('a secret that is not whsec_ signs with its UTF-8 bytes; without a secret nothing is signed', async () => {
    receiver.status = 204;
    const secret = 'plain-secret-of-the-receiver';
    const webhook = await createWebhook(gw, session.id, { url: receiver.url, secret });
    const [signed] = await receivedDuring(async () => {
      expect((await test(webhook)).body).toEqual({ success: true, statusCode: 204 });
    });
    const flat = Object.fromEntries(Object.entries(signed?.headers ?? {}).map(([n, v]) => [n, String(v)]));
    const raw = new StandardWebhook(Buffer.from(secret, 'utf8'), { format: 'raw' });
    expect(raw.verify(signed?.body ?? '', flat)).toMatchObject({ event: 'test' });

    const cleared = `/api/sessions/${session.id}/webhooks/${webhook.id}`;
    expect((await gw.request('PUT', cleared, { body: { secret: '', active: false } })).status).toBe(200);
    const [unsigned] = await receivedDuring(async () => {
      // An inactive webhook can be tested too: the test is how one checks a receiver before switching it on.
      expect((await test(webhook)).body).toEqual({ success: true, statusCode: 204 });
    });
    expect(unsigned?.headers['x-service-event']).toBe('test');
    expect(unsigned?.headers['webhook-signature']).toBeUndefined();
    expect(unsigned?.headers['x-service-signature']).toBeUndefined();
  });

  it('a 5xx answer is {success: false, statusCode}; a redirect is reported, not followed', async () => {
    const webhook = await createWebhook(gw, session.id, { url: receiver.url });
    receiver.status = 500;
    expect((await test(webhook)).body).toEqual({ success: false, statusCode: 500 });
    receiver.status = 302;
    const requests = await receivedDuring(async () => {
      expect((await test(webhook)).body).toEqual({ success: false, statusCode: 302 });
    });
    expect(requests).toHaveLength(1);
  });

  it('no listener, or no answer within WEBHOOK_TIMEOUT: {success: false, error}', async () => {
    const closed = await createWebhook(gw, session.id, { url: await closedPortUrl() });
    const refused = await test(closed);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ success: false, error: expect.stringMatching(/ECONNREFUSED/) });

    receiver.status = null;
    const silent = await createWebhook(gw, session.id, { url: receiver.url });
    const started = Date.now();
    const timedOut = await test(silent);
    expect(timedOut.status).toBe(200);
    expect(timedOut.body).toEqual({ success: false, error: `No response within ${WEBHOOK_TIMEOUT_MS} ms` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS - 100);
    receiver.status = 200;
  });

  it('a test records nothing: lastTriggeredAt stays null and no delivery failure is kept', async () => {
    const webhook = await createWebhook(gw, session.id, { url: await closedPortUrl() });
    expect((await test(webhook)).body).toMatchObject({ success: false });
    const read = await gw.request('GET', `/api/sessions/${session.id}/webhooks/${webhook.id}`);
    expect(read.body).toEqual(webhook);
    expect((await gw.request('GET', '/api/webhooks/delivery-failures')).body).toEqual([]);
  });

  it('404 for a webhook of another session, which is not contacted', async () => {
    const other = await createSession(gw);
    const foreign = await createWebhook(gw, other.id, { url: receiver.url });
    const requests = await receivedDuring(async () => {
      expectError(await test(foreign), 404, 'NOT_FOUND');
    });
    expect(requests).toEqual([]);
  });

  it('a URL the guard no longer allows is {success: false, error}; an unchanged URL is not vetted again', async () => {
    const webhook = await createWebhook(gw, session.id, { url: receiver.url });
    gw = await gw.restart({ SSRF_ALLOWED_HOSTS: '' });
    const requests = await receivedDuring(async () => {
      const res = await test(webhook);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: false, error: expect.stringMatching(/^URL not allowed/) });
    });
    expect(requests).toEqual([]);
    const path = `/api/sessions/${session.id}/webhooks/${webhook.id}`;
    expect((await gw.request('PUT', path, { body: { url: receiver.url, retryCount: 1 } })).status).toBe(200);
    expectError(
      await gw.request('PUT', path, { body: { url: `${receiver.url}/elsewhere` } }),
      400,
      'URL_NOT_ALLOWED',
    );
  });
});
