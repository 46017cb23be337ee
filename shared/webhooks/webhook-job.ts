/**
 * The messages of the webhook queue (embedded with QUEUE_ENABLED=true, SQS in aws mode), parsed with zod on every
 * receive like every other queue message:
 * - `event`: one stored event to fan out to its session's webhooks (what the outbox relay enqueues);
 * - `attempt`: the next attempt of one delivery, re-queued with a delay after a failed attempt. It carries the
 *   delivery's ids and its start `timestamp`, so every attempt sends the same body bytes under the same ids;
 * - `undeliverable`: an event that cannot travel through the queue (over the queue's message limit, or not
 *   serializable). Only what identifies it travels, so each subscribed webhook gets a failure row with 0 attempts
 *   instead of the event being retried forever.
 */
import { z } from 'zod';
import {
  EMITTED_EVENT_NAMES,
  type EmittedEventName,
  type GatewayEvent,
  parseGatewayEvent,
} from '#shared/domain/events.js';

/** A stored event, its `data` checked against its event's schema (parseGatewayEvent). */
const QueuedEvent = z.unknown().transform((value, ctx): GatewayEvent => {
  try {
    return parseGatewayEvent(value);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: error instanceof z.ZodError ? z.prettifyError(error) : String(error),
    });
    return z.NEVER;
  }
});

export const EventJob = z.object({ kind: z.literal('event'), event: QueuedEvent });
/** One stored event to fan out. */
export type EventJob = z.infer<typeof EventJob>;

export const AttemptJob = z.object({
  kind: z.literal('attempt'),
  event: QueuedEvent,
  webhookId: z.string().min(1),
  /** The attempt this job makes: 2 for the first retry (X-Service-Retry-Count is attempt − 1). */
  attempt: z.number().int().min(2),
  deliveryId: z.string().regex(/^dlv_[0-9a-f-]{36}$/),
  idempotencyKey: z.string().min(1),
  /** The body's `timestamp`: when the delivery began. */
  timestamp: z.iso.datetime({ offset: true }),
});
/** The next attempt of one delivery. */
export type AttemptJob = z.infer<typeof AttemptJob>;

export const UndeliverableJob = z.object({
  kind: z.literal('undeliverable'),
  event: z.enum(EMITTED_EVENT_NAMES as [EmittedEventName, ...EmittedEventName[]]),
  sessionId: z.string().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  /** The event's idempotency key before the per-webhook salt (idempotency-key.ts `eventKey`). */
  eventKey: z.string().min(1),
  reason: z.string().min(1),
});
/** An event that could not be queued: failure rows only. */
export type UndeliverableJob = z.infer<typeof UndeliverableJob>;

export const WebhookJob = z.discriminatedUnion('kind', [EventJob, AttemptJob, UndeliverableJob]);
export type WebhookJob = z.infer<typeof WebhookJob>;

/** A received message body, parsed; malformed bodies answer why instead of throwing. */
export type ParsedWebhookJob = { ok: true; job: WebhookJob } | { ok: false; error: string };

/** Parses a webhook queue message body (JSON, then the job schema). */
export function parseWebhookJob(body: string): ParsedWebhookJob {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { ok: false, error: 'body is not JSON' };
  }
  const parsed = WebhookJob.safeParse(raw);
  return parsed.success
    ? { ok: true, job: parsed.data }
    : { ok: false, error: z.prettifyError(parsed.error) };
}

/** A job as its message body. Throws what JSON.stringify throws (a BigInt or a cycle in an event's data). */
export function serializeWebhookJob(job: WebhookJob): string {
  return JSON.stringify(job);
}
