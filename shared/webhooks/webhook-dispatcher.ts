/**
 * Delivers events to webhooks: fan-out to every active webhook of the session that subscribes to the event (or to
 * `*`) and whose filters pass, one delivery each with a `deliveryId` stable across its retries, under a bounded
 * concurrency per webhook (a slow or failing receiver fills its own waiting line, never another webhook's). Each
 * attempt re-reads its webhook (deleted, disabled or unsubscribed: the delivery stops; a changed
 * URL, secret or headers applies), is signed at the time it is sent, and succeeds only on a 2xx. Failures wait
 * `retryDelayMs × 2^(attempt−1)` without holding a slot, up to the webhook's `retryCount` attempts; then a failure
 * row records it. Deliveries that are never attempted (over the payload cap, the waiting line full, shutdown)
 * leave a failure row with 0 attempts. Nothing here throws to the caller: every outcome is a row or a success.
 */
import type { GatewayEvent } from '#shared/domain/events.js';
import { subscribesTo } from '#shared/domain/webhook.js';
import { matchesFilters } from '#shared/domain/webhook-filters.js';
import { ConcurrencyLimiter, LimiterRefusal } from './concurrency-limiter.js';
import {
  type AttemptFailure,
  backoffMs,
  type DeliveryAttemptDeps,
  type DeliveryAttemptOptions,
  DeliveryAttempts,
  type DeliveryTarget,
  failureOf,
  isDelivered,
  newDeliveryIds,
  type PostOutcome,
} from './delivery-attempts.js';
import type { DeliveryIds } from './delivery-request.js';

// The delivery types moved to delivery-attempts.ts (shared with the queued delivery); importers keep this path.
export type {
  DeliveryFailureRecord,
  DeliveryFailures,
  DeliveryTarget,
  DeliveryTargets,
  PostOutcome,
} from './delivery-attempts.js';

export interface DispatcherOptions extends DeliveryAttemptOptions {
  retryDelayMs: number;
  concurrency: number;
  maxWaiting: number;
}

export interface DispatcherDeps extends DeliveryAttemptDeps {
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
  /** One limiter per webhook with deliveries running or waiting; dropped once idle. */
  private readonly limiters = new Map<string, ConcurrencyLimiter>();
  private readonly attempts: DeliveryAttempts;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: DispatcherOptions,
  ) {
    this.attempts = new DeliveryAttempts(deps, options);
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
    for (const limiter of this.limiters.values()) limiter.close();
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
    const ids = newDeliveryIds(event, target.id);
    const prepared = await this.attempts.prepare(event, ids, this.deps.clock.now().toISOString());
    if ('refused' in prepared) {
      await this.attempts.failed(event, target, ids, 0, { status: null, error: prepared.refused });
      return 'dropped';
    }
    let made = 0;
    let last: AttemptFailure = { status: null, error: '' };
    const attempts = Math.max(1, target.retryCount);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1)
        await this.sleep(backoffMs(this.options.retryDelayMs, attempt - 1), this.closing.signal);
      let outcome: PostOutcome | 'stopped';
      try {
        outcome = await this.limited(target.id, () =>
          this.attempt(event, target, ids, prepared.body, attempt),
        );
      } catch (error) {
        if (!(error instanceof LimiterRefusal)) throw error;
        // Never attempted (or not again): the line was full, or the gateway is shutting down.
        await this.attempts.failed(event, target, ids, made, { status: last.status, error: error.message });
        return 'dropped';
      }
      if (outcome === 'stopped') return 'stopped';
      if (isDelivered(outcome)) {
        await this.attempts.succeeded(target, ids);
        return 'delivered';
      }
      made = attempt;
      last = failureOf(outcome);
    }
    await this.attempts.failed(event, target, ids, made, last);
    return 'failed';
  }

  /** Runs `task` under the webhook's limiter (created on first use, closed from birth once shutting down). */
  private async limited<T>(webhookId: string, task: () => Promise<T>): Promise<T> {
    let limiter = this.limiters.get(webhookId);
    if (!limiter) {
      limiter = new ConcurrencyLimiter(this.options.concurrency, this.options.maxWaiting);
      if (this.closing.signal.aborted) limiter.close();
      this.limiters.set(webhookId, limiter);
    }
    try {
      return await limiter.run(task);
    } finally {
      const { active, waiting } = limiter.load;
      if (active === 0 && waiting === 0 && this.limiters.get(webhookId) === limiter)
        this.limiters.delete(webhookId);
    }
  }

  /** One attempt against the webhook as it is now; 'stopped' when it no longer wants this event. */
  private async attempt(
    event: GatewayEvent,
    original: DeliveryTarget,
    ids: DeliveryIds,
    body: string,
    attempt: number,
  ): Promise<PostOutcome | 'stopped'> {
    const target = attempt === 1 ? original : await this.attempts.current(original, event.event);
    if (!target) return 'stopped';
    return this.attempts.post(event.event, target, ids, body, attempt);
  }
}
