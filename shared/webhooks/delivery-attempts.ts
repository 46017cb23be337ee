/**
 * One delivery attempt of an event to a webhook, shared by the inline dispatcher and the queued delivery, so both
 * send the same bytes with the same ids, headers and signatures and leave the same records: the identities and body
 * of a delivery (serialized once, capped), the re-read of the webhook before a retry (a change applies, a deleted,
 * disabled or unsubscribed webhook stops the delivery), the signed POST (success = 2xx), and the bookkeeping of a
 * success (lastTriggeredAt, earlier failure rows cleared) or of an abandoned delivery (a failure row). How attempts
 * are spaced is the caller's business: the dispatcher sleeps between them, the queued path re-queues with a delay.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayEvent } from '#shared/domain/events.js';
import { subscribesTo } from '#shared/domain/webhook.js';
import type { WebhookFilters } from '#shared/domain/webhook-filters.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { HttpClient } from '#shared/ports/http-client.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { type DeliveryMedia, withInlineMedia } from './delivery-media.js';
import { type DeliveryIds, deliveryBody, deliveryHeaders } from './delivery-request.js';
import { idempotencyKey } from './idempotency-key.js';

/** A webhook as delivery needs it (secret and headers included: they never leave the server otherwise). */
export interface DeliveryTarget {
  id: string;
  sessionId: string;
  url: string;
  events: readonly string[];
  secret: string | null;
  headers: Readonly<Record<string, string>>;
  active: boolean;
  retryCount: number;
  filters: WebhookFilters | null;
}

/** Where delivery finds webhooks. */
export interface DeliveryTargets {
  /** The active webhooks of a session (may be cached briefly). */
  active(sessionId: string): Promise<readonly DeliveryTarget[]>;
  /** One webhook as it is now (before each retry), or null when it is gone. */
  current(sessionId: string, webhookId: string): Promise<DeliveryTarget | null>;
  /** A delivery succeeded (lastTriggeredAt). */
  triggered(target: DeliveryTarget, at: Date): Promise<void>;
}

/** What one POST answered: a status, or why there was none (refused by the SSRF guard, timeout, reset…). */
export type PostOutcome = { status: number } | { error: string };

/** A delivery that ended without success. */
export interface DeliveryFailureRecord {
  webhookId: string;
  sessionId: string;
  event: string;
  url: string;
  idempotencyKey: string;
  deliveryId: string | null;
  /** 0: never attempted. */
  attempts: number;
  lastStatusCode: number | null;
  lastError: string;
}

export interface DeliveryFailures {
  record(failure: DeliveryFailureRecord): Promise<void>;
  /** A later success of the same idempotency key clears its earlier failure rows. */
  clear(idempotencyKey: string): Promise<void>;
}

/** Why the last attempt failed, as a failure row records it. */
export interface AttemptFailure {
  status: number | null;
  error: string;
}

export interface DeliveryAttemptDeps {
  targets: DeliveryTargets;
  /** Where message events' archived files are read to travel inline; without it none does. */
  media?: DeliveryMedia;
  /** The guarded client: the URL is vetted (SSRF) and the connection pinned on every attempt. */
  http: HttpClient;
  failures: DeliveryFailures;
  clock: Clock;
  logger: Logger;
}

export interface DeliveryAttemptOptions {
  /** The gateway's version, in `User-Agent`. */
  version: string;
  /** Per attempt (WEBHOOK_TIMEOUT). */
  timeoutMs: number;
  /** Cap of the serialized body (WEBHOOK_MAX_PAYLOAD_BYTES). */
  maxPayloadBytes: number;
  /** The largest file a message event carries inline (WEBHOOK_MEDIA_INLINE_MAX_BYTES); 0 or absent: none. */
  mediaInlineMaxBytes?: number;
}

/** The ids of a new delivery of `event` to one webhook: a fresh deliveryId, the event's stable idempotency key. */
export function newDeliveryIds(event: GatewayEvent, webhookId: string): DeliveryIds {
  return { idempotencyKey: idempotencyKey(event, webhookId), deliveryId: `dlv_${randomUUID()}` };
}

/** True for a 2xx; a redirect is a failure (redirects are never followed). */
export function isDelivered(outcome: PostOutcome): boolean {
  return 'status' in outcome && outcome.status >= 200 && outcome.status < 300;
}

/** A failed attempt as its failure row records it. */
export function failureOf(outcome: PostOutcome): AttemptFailure {
  return 'status' in outcome
    ? { status: outcome.status, error: `HTTP ${outcome.status}` }
    : { status: null, error: outcome.error };
}

/** The wait after failed attempt `failedAttempt` (1-based) before the next: `retryDelayMs × 2^(n−1)`. */
export function backoffMs(retryDelayMs: number, failedAttempt: number): number {
  return retryDelayMs * 2 ** (failedAttempt - 1);
}

export class DeliveryAttempts {
  /** Each event's inline form, read once however many webhooks it goes to. */
  private readonly inlined = new WeakMap<GatewayEvent, Promise<GatewayEvent | null>>();

  constructor(
    private readonly deps: DeliveryAttemptDeps,
    private readonly options: DeliveryAttemptOptions,
  ) {}

  /**
   * The body every attempt of the delivery sends (`timestamp`: when the delivery began), or why it can never be
   * sent: unserializable, or over the payload cap. A message's file travels inline when it may (delivery-media.ts)
   * and is shed first when the body would be over the cap with it.
   */
  async prepare(
    event: GatewayEvent,
    ids: DeliveryIds,
    timestamp: string,
  ): Promise<{ body: string } | { refused: string }> {
    const inlined = await this.withMedia(event);
    const withMedia = inlined && this.serialize(inlined, ids, timestamp);
    if (withMedia && 'body' in withMedia) return withMedia;
    return this.serialize(event, ids, timestamp);
  }

  private withMedia(event: GatewayEvent): Promise<GatewayEvent | null> {
    const { media } = this.deps;
    const maxBytes = this.options.mediaInlineMaxBytes ?? 0;
    // Only a message event with a file may carry one: every other event skips the cache.
    const hasFile =
      (event.event === 'message.received' || event.event === 'message.sent') && event.data.media;
    if (!media || maxBytes <= 0 || !hasFile) return Promise.resolve(null);
    let pending = this.inlined.get(event);
    if (!pending) {
      pending = withInlineMedia(event, { source: media, maxBytes, logger: this.deps.logger });
      this.inlined.set(event, pending);
    }
    return pending;
  }

  private serialize(
    event: GatewayEvent,
    ids: DeliveryIds,
    timestamp: string,
  ): { body: string } | { refused: string } {
    let body: string;
    try {
      body = deliveryBody(event, ids, timestamp);
    } catch (error) {
      return { refused: `Webhook payload could not be serialized: ${String(error)}` };
    }
    const size = Buffer.byteLength(body);
    const cap = this.options.maxPayloadBytes;
    return size > cap
      ? { refused: `Webhook payload is ${size} bytes, exceeding the ${cap}-byte cap` }
      : { body };
  }

  /** The webhook as it is now when it still wants `event` (active and subscribed); null stops the delivery. */
  async current(webhook: { sessionId: string; id: string }, event: string): Promise<DeliveryTarget | null> {
    const target = await this.deps.targets.current(webhook.sessionId, webhook.id);
    return target && subscribesTo(target, event) ? target : null;
  }

  /** One signed POST of `body` to the webhook as given; `attempt` is 1 for the first. */
  async post(
    event: string,
    target: DeliveryTarget,
    ids: DeliveryIds,
    body: string,
    attempt: number,
  ): Promise<PostOutcome> {
    const headers = deliveryHeaders({
      event,
      ids,
      attempt,
      body,
      secret: target.secret,
      custom: target.headers,
      version: this.options.version,
      nowSeconds: Math.floor(this.deps.clock.now().getTime() / 1000),
    });
    const answer = await this.deps.http.post(target.url, {
      headers,
      body,
      timeoutMs: this.options.timeoutMs,
    });
    return answer.ok ? { status: answer.status } : { error: answer.error };
  }

  /** A success: lastTriggeredAt and cleared failure rows. Never throws: the delivery itself is done. */
  async succeeded(target: DeliveryTarget, ids: DeliveryIds): Promise<void> {
    await Promise.all([
      this.deps.targets.triggered(target, this.deps.clock.now()),
      this.deps.failures.clear(ids.idempotencyKey),
    ]).catch((error: unknown) => this.deps.logger.error({ err: error }, 'webhook bookkeeping failed'));
  }

  /** An abandoned delivery: its failure row (`attempts` 0: never attempted, no deliveryId). */
  async failed(
    event: { event: string; sessionId: string },
    target: DeliveryTarget,
    ids: DeliveryIds,
    attempts: number,
    last: AttemptFailure,
  ): Promise<void> {
    await this.deps.failures.record({
      webhookId: target.id,
      sessionId: event.sessionId,
      event: event.event,
      url: target.url,
      idempotencyKey: ids.idempotencyKey,
      deliveryId: attempts === 0 ? null : ids.deliveryId,
      attempts,
      lastStatusCode: last.status,
      lastError: last.error,
    });
    if (attempts > 0) {
      this.deps.logger.warn(
        { webhookId: target.id, sessionId: event.sessionId, event: event.event, attempts },
        'webhook delivery failed',
      );
    }
  }
}
