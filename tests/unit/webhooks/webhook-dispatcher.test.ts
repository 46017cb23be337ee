/**
 * The webhook dispatcher as one unit, with recording fakes around it: who gets an event, how attempts retry and
 * back off, what a failure leaves behind, and that a change to the webhook applies to its next attempt.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import type { HttpPostResult } from '#shared/ports/http-client.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import {
  type DeliveryFailureRecord,
  type DeliveryTarget,
  WebhookDispatcher,
} from '#shared/webhooks/webhook-dispatcher.js';

/** A receiver's answer, as the tests write it. */
type PostOutcome = { status: number } | { error: string };
const asResult = (outcome: PostOutcome): HttpPostResult =>
  'status' in outcome
    ? { ok: true, status: outcome.status, headers: {} }
    : { ok: false, reason: 'network', error: outcome.error };

import { TestClock } from '#tests/helpers/test-clock.js';
import { aDeliveryTarget, messageReceived } from '#tests/helpers/webhook-fixtures.js';

const event = messageReceived;
const target = aDeliveryTarget;

interface Setup {
  webhooks: Map<string, DeliveryTarget>;
  answers: (PostOutcome | (() => Promise<PostOutcome>))[];
  posts: { url: string; headers: Record<string, string>; body: string }[];
  failures: DeliveryFailureRecord[];
  cleared: string[];
  triggered: string[];
  slept: number[];
  dispatcher: WebhookDispatcher;
}

function setup(options: { maxPayloadBytes?: number; concurrency?: number; maxWaiting?: number } = {}): Setup {
  const s = {
    webhooks: new Map(),
    answers: [],
    posts: [],
    failures: [],
    cleared: [],
    triggered: [],
    slept: [],
  } as Omit<Setup, 'dispatcher'>;
  const dispatcher = new WebhookDispatcher(
    {
      targets: {
        active: async () => [...s.webhooks.values()].filter((w) => w.active),
        current: async (_sid, id) => s.webhooks.get(id) ?? null,
        triggered: async (w) => void s.triggered.push(w.id),
      },
      http: {
        post: async (url, request) => {
          s.posts.push({ url, headers: { ...request.headers }, body: String(request.body) });
          const answer = s.answers.shift() ?? { status: 200 };
          return asResult(typeof answer === 'function' ? await answer() : answer);
        },
      },
      failures: {
        record: async (failure) => void s.failures.push(failure),
        clear: async (key) => void s.cleared.push(key),
      },
      clock: new TestClock(),
      logger: silentLogger,
      sleep: async (ms) => void s.slept.push(ms),
    },
    {
      version: 'test',
      retryDelayMs: 5000,
      timeoutMs: 1000,
      maxPayloadBytes: options.maxPayloadBytes ?? 1_048_576,
      concurrency: options.concurrency ?? 16,
      maxWaiting: options.maxWaiting ?? 1000,
    },
  );
  return { ...s, dispatcher };
}

describe('WebhookDispatcher', () => {
  let s: Setup;
  beforeEach(() => {
    s = setup();
  });

  it('delivers to every active webhook subscribed to the event or to *, whose filters pass', async () => {
    s.webhooks.set('wh1', target());
    s.webhooks.set('wh2', target({ id: 'wh2', events: ['*'], url: 'https://b.example/' }));
    s.webhooks.set('wh3', target({ id: 'wh3', events: ['session.status'] }));
    s.webhooks.set('wh4', target({ id: 'wh4', active: false }));
    s.webhooks.set(
      'wh5',
      target({
        id: 'wh5',
        url: 'https://filtered-out.example/',
        filters: { conditions: [{ field: 'body', operator: 'contains', value: 'never there' }] },
      }),
    );
    expect(await s.dispatcher.dispatch(event)).toEqual(['delivered', 'delivered']);
    expect(s.posts.map((p) => p.url).sort()).toEqual(['https://b.example/', 'https://hooks.example/in']);
    expect(s.triggered.sort()).toEqual(['wh1', 'wh2']);
    expect(s.cleared).toHaveLength(2);
  });

  it('retries with exponential backoff under the same ids until a 2xx', async () => {
    s.webhooks.set('wh1', target());
    s.answers.push({ status: 500 }, { error: 'ECONNRESET' });
    expect(await s.dispatcher.dispatch(event)).toEqual(['delivered']);
    expect(s.slept).toEqual([5000, 10_000]);
    expect(s.posts.map((p) => p.headers['X-Service-Retry-Count'])).toEqual(['0', '1', '2']);
    expect(new Set(s.posts.map((p) => p.headers['X-Service-Delivery-Id'])).size).toBe(1);
    expect(new Set(s.posts.map((p) => p.headers['X-Service-Idempotency-Key'])).size).toBe(1);
    expect(new Set(s.posts.map((p) => p.body)).size).toBe(1);
    expect(s.failures).toEqual([]);
  });

  it('records a failure after retryCount attempts, with the last status (a redirect is a failure)', async () => {
    s.webhooks.set('wh1', target({ retryCount: 2 }));
    s.answers.push({ status: 503 }, { status: 302 });
    expect(await s.dispatcher.dispatch(event)).toEqual(['failed']);
    expect(s.failures).toEqual([
      expect.objectContaining({ webhookId: 'wh1', attempts: 2, lastStatusCode: 302, lastError: 'HTTP 302' }),
    ]);
    expect(s.failures[0]?.deliveryId).toMatch(/^dlv_/);
  });

  it('a retryCount of 0 still makes one attempt; a network error is the last error', async () => {
    s.webhooks.set('wh1', target({ retryCount: 0 }));
    s.answers.push({ error: 'connect ECONNREFUSED' });
    await s.dispatcher.dispatch(event);
    expect(s.posts).toHaveLength(1);
    expect(s.failures[0]).toMatchObject({
      attempts: 1,
      lastStatusCode: null,
      lastError: 'connect ECONNREFUSED',
    });
  });

  it('applies a changed secret to the next attempt, and stops without a failure once the webhook is gone', async () => {
    s.webhooks.set('wh1', target());
    s.answers.push(async () => {
      s.webhooks.set('wh1', target({ secret: 'a-new-secret-of-16+' }));
      return { status: 500 };
    });
    s.answers.push(async () => {
      s.webhooks.delete('wh1');
      return { status: 500 };
    });
    expect(await s.dispatcher.dispatch(event)).toEqual(['stopped']);
    expect(s.posts).toHaveLength(2);
    expect(s.posts[0]?.headers['X-Service-Signature']).toBeUndefined();
    expect(s.posts[1]?.headers['X-Service-Signature']).toMatch(/^sha256=/);
    expect(s.failures).toEqual([]);
  });

  it('never sends a payload over the cap: a failure row with 0 attempts', async () => {
    s = setup({ maxPayloadBytes: 100 });
    s.webhooks.set('wh1', target());
    expect(await s.dispatcher.dispatch(event)).toEqual(['dropped']);
    expect(s.posts).toEqual([]);
    expect(s.failures[0]).toMatchObject({
      attempts: 0,
      deliveryId: null,
      lastError: expect.stringMatching(/bytes, exceeding the 100-byte cap/),
    });
  });

  it('refuses what finds the waiting line full, and what waits at shutdown, with 0 attempts', async () => {
    s = setup({ concurrency: 1, maxWaiting: 1 });
    let release: () => void = () => undefined;
    s.answers.push(() => new Promise<PostOutcome>((resolve) => (release = () => resolve({ status: 200 }))));
    s.webhooks.set('wh1', target());
    const outcomes = ['M1', 'M2', 'M3'].map((id) =>
      s.dispatcher.dispatch({ ...event, data: { ...event.data, id } }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    s.dispatcher.close();
    release();
    expect((await Promise.all(outcomes)).flat()).toEqual(['delivered', 'dropped', 'dropped']);
    expect(s.failures.map((f) => [f.attempts, f.lastError]).sort()).toEqual([
      [0, 'ConcurrencyLimiter closed'],
      [0, 'ConcurrencyLimiter queue full'],
    ]);
  });

  it('keeps each webhook to its own line: a receiver that hangs never holds up another webhook', async () => {
    s = setup({ concurrency: 1, maxWaiting: 1 });
    let release: () => void = () => undefined;
    s.answers.push(() => new Promise<PostOutcome>((resolve) => (release = () => resolve({ status: 200 }))));
    s.webhooks.set('slow', target({ id: 'slow', url: 'https://slow.example.com/hook' }));
    const slow = s.dispatcher.dispatch(event);
    await new Promise((resolve) => setImmediate(resolve));
    // The slow webhook's only slot is taken and its line has room for one: a second webhook still delivers at once.
    s.webhooks.set('fast', target({ id: 'fast', url: 'https://fast.example.com/hook' }));
    s.webhooks.delete('slow');
    expect(await s.dispatcher.dispatch({ ...event, data: { ...event.data, id: 'M2' } })).toEqual([
      'delivered',
    ]);
    expect(s.posts.map((p) => p.url)).toEqual([
      'https://slow.example.com/hook',
      'https://fast.example.com/hook',
    ]);
    release();
    expect(await slow).toEqual(['delivered']);
    expect(s.failures).toEqual([]);
  });
});
