/**
 * Delivers events to webhooks: fan-out to every active webhook of the session that subscribes to the event (or to
 * `*`) and whose filters pass, one delivery each with a `deliveryId` stable across its retries, under a bounded
 * concurrency. Each attempt re-reads its webhook (deleted, disabled or unsubscribed: the delivery stops; a changed
 * URL, secret or headers applies), is signed at the time it is sent, and succeeds only on a 2xx. Failures wait
 * `retryDelayMs × 2^(attempt−1)` without holding a slot, up to the webhook's `retryCount` attempts; then a failure
 * row records it. Deliveries that are never attempted (over the payload cap, the waiting line full, shutdown)
 * leave a failure row with 0 attempts. Nothing here throws to the caller: every outcome is a row or a success.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayEvent } from '#shared/domain/events.js';
import { subscribesTo } from '#shared/domain/webhook.js';
import { matchesFilters, type WebhookFilters } from '#shared/domain/webhook-filters.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { HttpClient } from '#shared/ports/http-client.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { ConcurrencyLimiter, LimiterRefusal } from './concurrency-limiter.js';
import { type DeliveryIds, deliveryBody, deliveryHeaders } from './delivery-request.js';
import { idempotencyKey } from './idempotency-key.js';

/** A webhook as the dispatcher needs it (secret and headers included: they never leave the server otherwise). */
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

/** Where the dispatcher finds webhooks. */
export interface DeliveryTargets {
  /** The active webhooks of a session (may be cached briefly). */
  active(sessionId: string): Promise<readonly DeliveryTarget[]>;
  /** One webhook as it is now (before each attempt), or null when it is gone. */
  current(sessionId: string, webhookId: string): Promise<DeliveryTarget | null>;
  /** A delivery succeeded (lastTriggeredAt). */
  triggered(target: DeliveryTarget, at: Date): Promise<void>;
}

/** What one POST answered: a status, or why there was none (refused by the SSRF guard, timeout, reset…). */
export type PostOutcome = { status: number } | { error: string };

export interface DeliveryHttp {
  post(
    url: string,
    request: { headers: Record<string, string>; body: string; timeoutMs: number },
  ): Promise<PostOutcome>;
}

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

export interface DispatcherOptions {
  version: string;
  retryDelayMs: number;
  timeoutMs: number;
  maxPayloadBytes: number;
  concurrency: number;
  maxWaiting: number;
}

export interface DispatcherDeps {
  targets: DeliveryTargets;
  /** The guarded client: the URL is vetted (SSRF) and the connection pinned on every attempt. */
  http: HttpClient;
  failures: DeliveryFailures;
  clock: Clock;
  logger: Logger;
  /** Injected by tests; a timer otherwise (cut short when the dispatcher closes). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The outcome of one delivery, for callers that keep count (tests, the relay, metrics). */
export type DeliveryOutcome = 'delivered' | 'failed' | 'dropped' | 'stopped';

/** Waits `ms`, or less when `signal` aborts first (shutdown: the delivery then records its failure at once). */
const realSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

export class WebhookDispatcher {
  private readonly limiter: ConcurrencyLimiter;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: DispatcherOptions,
  ) {
    this.limiter = new ConcurrencyLimiter(options.concurrency, options.maxWaiting);
    this.sleep = deps.sleep ?? realSleep;
  }

  /** Delivers `event` to every webhook that wants it; resolves when each delivery has its outcome. */
  dispatch(event: GatewayEvent): Promise<DeliveryOutcome[]> {
    const work = this.fanOut(event);
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /**
   * Shutdown: what waits for a slot or for its next attempt is refused and recorded at once (the attempts made so
   * far, or 0); attempts under way finish. `drain` then resolves when every delivery has its outcome.
   */
  close(): void {
    this.closing.abort();
    this.limiter.close();
  }

  /** Resolves once every delivery begun so far has its outcome (call after close, before the stores close). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async fanOut(event: GatewayEvent): Promise<DeliveryOutcome[]> {
    const targets = await this.deps.targets.active(event.sessionId);
    const wanted = targets.filter(
      (target) => subscribesTo(target, event.event) && matchesFilters(target.filters, event),
    );
    return Promise.all(wanted.map((target) => this.deliver(event, target)));
  }

  private async deliver(event: GatewayEvent, target: DeliveryTarget): Promise<DeliveryOutcome> {
    const ids: DeliveryIds = {
      idempotencyKey: idempotencyKey(event, target.id),
      deliveryId: `dlv_${randomUUID()}`,
    };
    const failure = (attempts: number, lastStatusCode: number | null, lastError: string) =>
      this.deps.failures.record({
        webhookId: target.id,
        sessionId: event.sessionId,
        event: event.event,
        url: target.url,
        idempotencyKey: ids.idempotencyKey,
        deliveryId: attempts === 0 ? null : ids.deliveryId,
        attempts,
        lastStatusCode,
        lastError,
      });
    let body: string;
    try {
      body = deliveryBody(event, ids, this.deps.clock.now().toISOString());
    } catch (error) {
      await failure(0, null, `Webhook payload could not be serialized: ${String(error)}`);
      return 'dropped';
    }
    const size = Buffer.byteLength(body);
    if (size > this.options.maxPayloadBytes) {
      await failure(
        0,
        null,
        `Webhook payload is ${size} bytes, exceeding the ${this.options.maxPayloadBytes}-byte cap`,
      );
      return 'dropped';
    }
    let last: { attempts: number; status: number | null; error: string } = {
      attempts: 0,
      status: null,
      error: '',
    };
    const attempts = Math.max(1, target.retryCount);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await this.sleep(this.options.retryDelayMs * 2 ** (attempt - 2), this.closing.signal);
      let outcome: PostOutcome | 'stopped';
      try {
        outcome = await this.limiter.run(() => this.attempt(event, target, ids, body, attempt));
      } catch (error) {
        if (!(error instanceof LimiterRefusal)) throw error;
        // Never attempted (or not again): the line was full, or the gateway is shutting down.
        await failure(last.attempts, last.status, error.message);
        return 'dropped';
      }
      if (outcome === 'stopped') return 'stopped';
      if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) {
        await this.succeeded(target, ids);
        return 'delivered';
      }
      last =
        'status' in outcome
          ? { attempts: attempt, status: outcome.status, error: `HTTP ${outcome.status}` }
          : { attempts: attempt, status: null, error: outcome.error };
    }
    await failure(last.attempts, last.status, last.error);
    this.deps.logger.warn(
      { webhookId: target.id, sessionId: event.sessionId, event: event.event, attempts: last.attempts },
      'webhook delivery failed',
    );
    return 'failed';
  }

  /** One attempt against the webhook as it is now; 'stopped' when it no longer wants this event. */
  private async attempt(
    event: GatewayEvent,
    original: DeliveryTarget,
    ids: DeliveryIds,
    body: string,
    attempt: number,
  ): Promise<PostOutcome | 'stopped'> {
    const target =
      attempt === 1 ? original : await this.deps.targets.current(original.sessionId, original.id);
    if (!target?.active || !(target.events.includes(event.event) || target.events.includes('*')))
      return 'stopped';
    const headers = deliveryHeaders({
      event: event.event,
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

  private async succeeded(target: DeliveryTarget, ids: DeliveryIds): Promise<void> {
    await Promise.all([
      this.deps.targets.triggered(target, this.deps.clock.now()),
      this.deps.failures.clear(ids.idempotencyKey),
    ]).catch((error: unknown) => this.deps.logger.error({ err: error }, 'webhook bookkeeping failed'));
  }
}
