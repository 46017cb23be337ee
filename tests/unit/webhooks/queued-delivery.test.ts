/**
 * The queued webhook delivery as one unit, with recording fakes around it: one attempt per webhook per job, the
 * same request as the inline dispatcher, retries re-queued with the backoff as their delay under the same ids,
 * failure rows after the last attempt or for what is never sent, a changed or deleted webhook applying to the next
 * attempt, and a job that fails only when a store or the queue is unavailable.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { UnavailableError } from '#shared/errors/app-error.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type {
  DeliveryFailureRecord,
  DeliveryTarget,
  PostOutcome,
} from '#shared/webhooks/delivery-attempts.js';
import { QueuedWebhookDelivery } from '#shared/webhooks/queued-delivery.js';
import { WebhookDispatcher } from '#shared/webhooks/webhook-dispatcher.js';
import { type AttemptJob, parseWebhookJob, type WebhookJob } from '#shared/webhooks/webhook-job.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { aDeliveryTarget, FIXTURE_SESSION, messageReceived } from '#tests/helpers/webhook-fixtures.js';

const SESSION = FIXTURE_SESSION;
const event = messageReceived;
const target = (overrides: Partial<DeliveryTarget> = {}) =>
  aDeliveryTarget({ secret: 'a-secret-of-16-chars', headers: { 'X-Custom': 'yes' }, ...overrides });

function setup(options: { maxPayloadBytes?: number } = {}) {
  const webhooks = new Map<string, DeliveryTarget>();
  const answers: (PostOutcome | (() => PostOutcome))[] = [];
  const posts: { url: string; headers: Record<string, string>; body: string }[] = [];
  const failures: DeliveryFailureRecord[] = [];
  const cleared: string[] = [];
  const triggered: string[] = [];
  const retries: { job: AttemptJob; delaySeconds: number }[] = [];
  const broken = { targets: false, queue: false };
  const clock = new TestClock();
  const deps = {
    targets: {
      active: async () => {
        if (broken.targets) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Data store is unavailable');
        return [...webhooks.values()].filter((w) => w.active);
      },
      current: async (_sid: string, id: string) => webhooks.get(id) ?? null,
      triggered: async (w: DeliveryTarget) => void triggered.push(w.id),
    },
    http: {
      post: async (url: string, request: { headers: Readonly<Record<string, string>>; body: unknown }) => {
        posts.push({ url, headers: { ...request.headers }, body: String(request.body) });
        const next = answers.shift() ?? { status: 200 };
        const answer = typeof next === 'function' ? next() : next;
        return 'status' in answer
          ? { ok: true as const, status: answer.status, headers: {} }
          : { ok: false as const, reason: 'network' as const, error: answer.error };
      },
    },
    failures: {
      record: async (failure: DeliveryFailureRecord) => void failures.push(failure),
      clear: async (key: string) => void cleared.push(key),
    },
    clock,
    logger: silentLogger,
  };
  const delivery = new QueuedWebhookDelivery(
    {
      ...deps,
      jobs: {
        enqueueRetry: async (job: AttemptJob, delaySeconds: number) => {
          if (broken.queue) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Queue is unavailable');
          retries.push({ job, delaySeconds });
          return true;
        },
      },
    },
    {
      version: 'test',
      retryDelayMs: 5000,
      timeoutMs: 1000,
      maxPayloadBytes: options.maxPayloadBytes ?? 1_048_576,
    },
  );
  const dispatcher = new WebhookDispatcher(deps, {
    version: 'test',
    retryDelayMs: 5000,
    timeoutMs: 1000,
    maxPayloadBytes: 1_048_576,
    concurrency: 4,
    maxWaiting: 10,
  });
  /** Processes the next queued retry as the queue would hand it over (serialized, then parsed). */
  const nextRetry = async () => {
    const retry = retries.shift();
    if (!retry) throw new Error('no retry queued');
    const parsed = parseWebhookJob(JSON.stringify(retry.job));
    if (!parsed.ok) throw new Error(parsed.error);
    return delivery.process(parsed.job);
  };
  return {
    webhooks,
    answers,
    posts,
    failures,
    cleared,
    triggered,
    retries,
    broken,
    delivery,
    dispatcher,
    nextRetry,
  };
}

const eventJob: WebhookJob = { kind: 'event', event };

describe('QueuedWebhookDelivery', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => {
    s = setup();
  });

  it('makes one attempt per subscribed webhook whose filters pass, and sends what the dispatcher sends', async () => {
    s.webhooks.set('wh1', target());
    s.webhooks.set('wh2', target({ id: 'wh2', events: ['session.status'] }));
    s.webhooks.set('wh3', target({ id: 'wh3', active: false }));
    s.webhooks.set(
      'wh4',
      target({
        id: 'wh4',
        filters: { conditions: [{ field: 'body', operator: 'contains', value: 'never' }] },
      }),
    );
    expect(await s.delivery.process(eventJob)).toEqual(['delivered']);
    expect(s.triggered).toEqual(['wh1']);
    expect(s.cleared).toEqual([`msg_${SESSION}_3EB0AAAA_wh1`]);
    await s.dispatcher.dispatch(event);
    const [queued, inline] = s.posts;
    if (!queued || !inline) throw new Error('two posts expected');
    const deliveryId = (post: typeof queued) => String(post.headers['X-Service-Delivery-Id']);
    const normalise = (post: typeof queued) => ({
      url: post.url,
      body: post.body.replace(deliveryId(post), 'dlv'),
      headers: Object.keys(post.headers).sort(),
    });
    expect(normalise(queued)).toEqual(normalise(inline));
    expect(queued.headers['X-Service-Idempotency-Key']).toBe(inline.headers['X-Service-Idempotency-Key']);
  });

  it('re-queues a failed attempt with the backoff as its delay, under the same ids and body, until a 2xx', async () => {
    s.webhooks.set('wh1', target());
    s.answers.push({ status: 500 }, { error: 'ECONNRESET' });
    expect(await s.delivery.process(eventJob)).toEqual(['retrying']);
    expect(s.retries.map((r) => [r.job.attempt, r.delaySeconds])).toEqual([[2, 5]]);
    expect(await s.nextRetry()).toEqual(['retrying']);
    expect(s.retries.map((r) => [r.job.attempt, r.delaySeconds])).toEqual([[3, 10]]);
    expect(await s.nextRetry()).toEqual(['delivered']);
    expect(s.posts.map((p) => p.headers['X-Service-Retry-Count'])).toEqual(['0', '1', '2']);
    expect(new Set(s.posts.map((p) => p.headers['X-Service-Delivery-Id'])).size).toBe(1);
    expect(new Set(s.posts.map((p) => p.headers['X-Service-Idempotency-Key'])).size).toBe(1);
    expect(new Set(s.posts.map((p) => p.body)).size).toBe(1);
    expect(s.failures).toEqual([]);
    expect(s.triggered).toEqual(['wh1']);
  });

  it('records a failure after retryCount attempts with the last status (a redirect is a failure)', async () => {
    s.webhooks.set('wh1', target({ retryCount: 2 }));
    s.answers.push({ status: 503 }, { status: 302 });
    await s.delivery.process(eventJob);
    expect(await s.nextRetry()).toEqual(['failed']);
    expect(s.retries).toEqual([]);
    expect(s.failures).toEqual([
      expect.objectContaining({ webhookId: 'wh1', attempts: 2, lastStatusCode: 302, lastError: 'HTTP 302' }),
    ]);
    expect(s.failures[0]?.deliveryId).toBe(s.posts[0]?.headers['X-Service-Delivery-Id']);
  });

  it('applies a changed webhook to the next attempt, and stops without a failure once it is gone', async () => {
    s.webhooks.set('wh1', target());
    s.answers.push({ status: 500 }, { status: 500 });
    await s.delivery.process(eventJob);
    s.webhooks.set('wh1', target({ url: 'https://moved.example/in', secret: null }));
    expect(await s.nextRetry()).toEqual(['retrying']);
    expect(s.posts[1]?.url).toBe('https://moved.example/in');
    expect(s.posts[1]?.headers['X-Service-Signature']).toBeUndefined();
    s.webhooks.delete('wh1');
    expect(await s.nextRetry()).toEqual(['stopped']);
    expect(s.posts).toHaveLength(2);
    expect(s.failures).toEqual([]);
  });

  it("a lowered retryCount applies too: the webhook's count as it stands at the attempt", async () => {
    s.webhooks.set('wh1', target({ retryCount: 5 }));
    s.answers.push({ status: 500 }, { status: 500 });
    await s.delivery.process(eventJob);
    s.webhooks.set('wh1', target({ retryCount: 2 }));
    expect(await s.nextRetry()).toEqual(['failed']);
    expect(s.failures[0]).toMatchObject({ attempts: 2, lastStatusCode: 500 });
  });

  it('never sends a payload over the cap: a failure row with 0 attempts and nothing queued', async () => {
    s = setup({ maxPayloadBytes: 100 });
    s.webhooks.set('wh1', target());
    expect(await s.delivery.process(eventJob)).toEqual(['dropped']);
    expect(s.posts).toEqual([]);
    expect(s.retries).toEqual([]);
    expect(s.failures[0]).toMatchObject({
      attempts: 0,
      deliveryId: null,
      lastError: expect.stringMatching(/bytes, exceeding the 100-byte cap/),
    });
  });

  it('fails the job when the store is unavailable, and after every webhook had its attempt when the queue is', async () => {
    s.webhooks.set('wh1', target());
    s.webhooks.set('wh2', target({ id: 'wh2' }));
    s.broken.targets = true;
    await expect(s.delivery.process(eventJob)).rejects.toThrow(/Data store is unavailable/);
    expect(s.posts).toEqual([]);
    s.broken.targets = false;
    s.broken.queue = true;
    s.answers.push(() => ({ status: 500 }), { status: 200 });
    await expect(s.delivery.process(eventJob)).rejects.toThrow(/Queue is unavailable/);
    expect(s.posts).toHaveLength(2);
    expect(s.triggered).toHaveLength(1);
    expect(s.failures).toEqual([]);
  });

  it('an undeliverable event leaves a 0-attempt row for every webhook subscribed to it', async () => {
    s.webhooks.set('wh1', target());
    s.webhooks.set('wh2', target({ id: 'wh2', events: ['*'] }));
    s.webhooks.set('wh3', target({ id: 'wh3', events: ['session.status'] }));
    const job: WebhookJob = {
      kind: 'undeliverable',
      event: 'message.received',
      sessionId: SESSION,
      occurredAt: event.occurredAt,
      eventKey: `msg_${SESSION}_3EB0AAAA`,
      reason: 'too large for the queue',
    };
    expect(await s.delivery.process(job)).toEqual(['dropped', 'dropped']);
    expect(s.posts).toEqual([]);
    expect(
      s.failures.map((f) => [f.webhookId, f.idempotencyKey, f.attempts, f.deliveryId, f.lastError]),
    ).toEqual([
      ['wh1', `msg_${SESSION}_3EB0AAAA_wh1`, 0, null, 'too large for the queue'],
      ['wh2', `msg_${SESSION}_3EB0AAAA_wh2`, 0, null, 'too large for the queue'],
    ]);
  });
});
