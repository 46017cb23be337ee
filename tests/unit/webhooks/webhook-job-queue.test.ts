/**
 * The producer side of the webhook queue: the event job the relay enqueues, the undeliverable job that stands in
 * for an event the queue cannot carry, and retries sent with their backoff as the message delay.
 */
import { describe, expect, it } from '@jest/globals';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import { type AttemptJob, parseWebhookJob } from '#shared/webhooks/webhook-job.js';
import { MAX_JOB_BYTES, retryDelaySeconds, WebhookJobQueue } from '#shared/webhooks/webhook-job-queue.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { messageReceived as event, FIXTURE_SESSION as SESSION } from '#tests/helpers/webhook-fixtures.js';

describe('retryDelaySeconds', () => {
  it('is WEBHOOK_RETRY_DELAY × 2^(n−1) in whole seconds, rounded up, at most 900', () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(5000, n))).toEqual([5, 10, 20, 40]);
    expect(retryDelaySeconds(20, 1)).toBe(1);
    expect(retryDelaySeconds(0, 3)).toBe(0);
    expect(retryDelaySeconds(600_000, 2)).toBe(900);
  });
});

describe('WebhookJobQueue', () => {
  const queue = () => new MemoryQueue({ name: 'webhooks', fifo: false, visibilityTimeoutSeconds: 30 });
  const bodies = async (q: MemoryQueue) =>
    (await q.receive({ maxMessages: 10 })).map((m) => parseWebhookJob(m.body));

  it('enqueueEvent puts the event job on the queue', async () => {
    const q = queue();
    await new WebhookJobQueue(q).enqueueEvent(event);
    expect(await bodies(q)).toEqual([{ ok: true, job: { kind: 'event', event } }]);
  });

  it('queues an event the queue cannot carry as undeliverable: over its message limit, or unserializable', async () => {
    const q = queue();
    const jobs = new WebhookJobQueue(q);
    await jobs.enqueueEvent({ ...event, data: { ...event.data, body: 'x'.repeat(MAX_JOB_BYTES) } });
    const data = { ...event.data, huge: 1n } as unknown as typeof event.data;
    await jobs.enqueueEvent({ ...event, data });
    const received = await bodies(q);
    expect(received.map((r) => r.ok && r.job.kind === 'undeliverable' && r.job.reason)).toEqual([
      expect.stringMatching(/exceeding the queue's 1048576-byte message limit/),
      expect.stringMatching(/could not be serialized/),
    ]);
    expect(received.map((r) => r.ok && r.job.kind === 'undeliverable' && r.job.eventKey)).toEqual([
      `msg_${SESSION}_3EB0AAAA`,
      `msg_${SESSION}_3EB0AAAA`,
    ]);
  });

  it('enqueueRetry sends with the delay, and refuses a job over the message limit', async () => {
    const clock = new TestClock();
    const q = new MemoryQueue({ name: 'webhooks', fifo: false, visibilityTimeoutSeconds: 30, clock });
    const jobs = new WebhookJobQueue(q);
    const job: AttemptJob = {
      kind: 'attempt',
      event,
      webhookId: 'wh1',
      attempt: 2,
      deliveryId: 'dlv_0b6e6a52-1f7e-4a38-9d6e-3d1b2f0c9a11',
      idempotencyKey: 'k',
      timestamp: event.occurredAt,
    };
    expect(await jobs.enqueueRetry(job, 5)).toBe(true);
    expect(await q.receive()).toEqual([]);
    clock.advance(5000);
    expect((await q.receive()).map((m) => parseWebhookJob(m.body))).toEqual([{ ok: true, job }]);
    const huge = { ...job, event: { ...event, data: { ...event.data, body: 'x'.repeat(MAX_JOB_BYTES) } } };
    expect(await jobs.enqueueRetry(huge, 5)).toBe(false);
    expect(await q.depth()).toBe(1);
  });
});
