/**
 * The webhook queue's messages: every kind round-trips through its body, the event inside is checked against its
 * event's data schema (parseGatewayEvent), and a malformed body answers why instead of throwing.
 */
import { describe, expect, it } from '@jest/globals';
import type { GatewayEvent } from '#shared/domain/events.js';
import { parseWebhookJob, serializeWebhookJob, type WebhookJob } from '#shared/webhooks/webhook-job.js';

const SESSION = 'b6a1c0de-0000-4000-8000-000000000001';
const event: GatewayEvent = {
  event: 'session.status',
  sessionId: SESSION,
  occurredAt: '2026-11-26T01:00:00.000Z',
  data: { sessionId: SESSION, status: 'ready' },
};
const attempt: WebhookJob = {
  kind: 'attempt',
  event,
  webhookId: 'wh1',
  attempt: 2,
  deliveryId: 'dlv_0b6e6a52-1f7e-4a38-9d6e-3d1b2f0c9a11',
  idempotencyKey: `sess_${SESSION}_ready_2026-11-26T01:00:00.000Z_wh1`,
  timestamp: '2026-11-26T01:00:00.123Z',
};
const undeliverable: WebhookJob = {
  kind: 'undeliverable',
  event: 'message.received',
  sessionId: SESSION,
  occurredAt: '2026-11-26T01:00:00.000Z',
  eventKey: `msg_${SESSION}_3EB0AAAA`,
  reason: 'too large',
};

const errorOf = (body: string) => {
  const parsed = parseWebhookJob(body);
  if (parsed.ok) throw new Error('parsed');
  return parsed.error;
};

describe('webhook jobs', () => {
  it.each<[string, WebhookJob]>([
    ['event', { kind: 'event', event }],
    ['attempt', attempt],
    ['undeliverable', undeliverable],
  ])('the %s job round-trips through its message body', (_, job) => {
    expect(parseWebhookJob(serializeWebhookJob(job))).toEqual({ ok: true, job });
  });

  it('checks the event data against its event schema', () => {
    const bad = { kind: 'event', event: { ...event, data: { sessionId: SESSION, status: 'sleepy' } } };
    expect(errorOf(JSON.stringify(bad))).toMatch(/status/);
    const unknown = { kind: 'event', event: { ...event, event: 'message.teleported' } };
    expect(errorOf(JSON.stringify(unknown))).toMatch(/event/);
  });

  it('refuses a body that is not JSON, an unknown kind, and an attempt job with bad fields', () => {
    expect(errorOf('{not json')).toBe('body is not JSON');
    expect(errorOf(JSON.stringify({ kind: 'replay', event }))).toMatch(/kind/);
    expect(errorOf(JSON.stringify({ ...attempt, attempt: 1 }))).toMatch(/attempt/);
    expect(errorOf(JSON.stringify({ ...attempt, deliveryId: 'not-a-delivery' }))).toMatch(/deliveryId/);
    expect(errorOf(JSON.stringify({ ...attempt, timestamp: 'yesterday' }))).toMatch(/timestamp/);
    const { webhookId: _, ...withoutWebhook } = attempt as Extract<WebhookJob, { kind: 'attempt' }>;
    expect(errorOf(JSON.stringify(withoutWebhook))).toMatch(/webhookId/);
  });

  it('serializing a job throws what JSON.stringify throws (data that cannot be serialized)', () => {
    const data = { sessionId: SESSION, status: 'ready', huge: 1n } as unknown as typeof event.data;
    expect(() => serializeWebhookJob({ kind: 'event', event: { ...event, data } })).toThrow(/BigInt/);
  });
});
