/** Env of events, webhooks and autoreply (spec Limits; openwa-facts §4.6–4.8). */
import { z } from 'zod';
import { commaList, flag, limit, limitOrZero, retentionDays } from './fields.js';

export const WebhooksEnv = z.object({
  /** Embedded mode: relay deliveries through the embedded durable queue instead of dispatching inline. */
  QUEUE_ENABLED: flag(false),
  /**
   * The embedded webhook queue: how long a job stays hidden while it is processed (one attempt per webhook, each
   * within WEBHOOK_TIMEOUT), and after how many receives a job that keeps failing moves to its dead-letter queue.
   * In aws mode the SQS queue's own attributes (serverless.yml) decide.
   */
  WEBHOOK_VISIBILITY_TIMEOUT_S: limit(60),
  WEBHOOK_MAX_RECEIVES: limit(5),
  /** Per-attempt deadline of a delivery (connect to answer), ms. */
  WEBHOOK_TIMEOUT: limit(10_000),
  /** Base of the exponential backoff between attempts, ms (× 2^(attempt−1)). */
  WEBHOOK_RETRY_DELAY: limit(5_000),
  /** Serialized body cap; a larger event is never sent (a failure row with 0 attempts). */
  WEBHOOK_MAX_PAYLOAD_BYTES: limit(1_048_576),
  /** Media up to this size (decoded bytes) travels inside an event's payload; larger is left out. 0 = never. */
  WEBHOOK_MEDIA_INLINE_MAX_BYTES: limitOrZero(1_048_576),
  /** Inline dispatch: deliveries in flight at once, and how many may wait for a slot. */
  WEBHOOK_DISPATCH_CONCURRENCY: limit(16),
  WEBHOOK_DISPATCH_MAX_QUEUED: limit(1_000),
  WEBHOOK_MAX_PER_SESSION: limit(16),
  /**
   * Shutdown: how long inline deliveries still waiting for a slot or a retry may go on before they are refused
   * (attempts-0 failure rows, or the attempts made so far), ms; 0 refuses them at once.
   */
  WEBHOOK_SHUTDOWN_DRAIN_MS: limitOrZero(5_000),
  /** Delivery-failure rows older than this are pruned; 0 or less keeps them all. */
  WEBHOOK_FAILURE_RETENTION_DAYS: retentionDays(90),
  /** Exact host names or IPs the SSRF guard lets through (operators' internal receivers, tests). */
  SSRF_ALLOWED_HOSTS: commaList,
  AUTOMATION_MAX_PER_SESSION: limit(32),
  /** Message templates a session may hold. */
  TEMPLATE_MAX_PER_SESSION: limit(100),
  /**
   * Outbox: how long a stored event may wait before a sweep relays it again (its relay died with its process, or
   * a consumer failed), ms; and how often the host sweeps, ms.
   */
  OUTBOX_SWEEP_AFTER_MS: limit(30_000),
  OUTBOX_SWEEP_INTERVAL_MS: limit(5_000),
});
