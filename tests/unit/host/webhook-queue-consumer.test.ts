/**
 * The queued webhook delivery as the embedded host runs it (QUEUE_ENABLED=true): the producer and consumer of
 * startQueuedWebhookDelivery on a real embedded SQLite queue, the memory data store, the guarded HTTP client and
 * real local receivers that verify every delivery with the standardwebhooks package and the X-Service-Signature
 * HMAC. The queue runs on a TestClock started at the real time, so retry delays are shown to hold to the
 * millisecond without waiting them out; deliveries are signed on the real clock, which the receivers check.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  type RunningQueuedWebhookDelivery,
  startQueuedWebhookDelivery,
} from '#host/events/webhook-queue-consumer.js';
import { openEmbeddedQueues } from '#shared/adapters/embedded-queue/open-embedded-queues.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { loadEnv } from '#shared/config/env.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Webhook } from '#shared/domain/webhook.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { OutgoingMessage, Queue } from '#shared/ports/queue.port.js';
import { aSession, aWebhook } from '#tests/helpers/builders.js';
import { startScriptedReceiver, until, WHSEC_SECRET } from '#tests/helpers/scripted-receiver.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('queued webhook delivery on the embedded queue', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function setUp(env: Record<string, string> = {}) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-webhook-queue-'));
    const queueClock = new TestClock(Date.now());
    const shape = { fifo: false, visibilityTimeoutSeconds: 60, pollIntervalMs: 10 };
    const queues = openEmbeddedQueues(
      path.join(dir, 'queue.sqlite'),
      { webhooks: { ...shape, maxReceiveCount: 3, deadLetterQueue: 'dead' }, dead: shape },
      { clock: queueClock },
    );
    const data = createMemoryDataStore();
    const auditStore = new MemoryAuditLogStore();
    const audit = new AuditRecorder(auditStore, systemClock, silentLogger, createMetrics());
    const session = aSession({ status: 'ready' });
    await data.sessions.create(session);
    const queue = queues.queues.webhooks;
    // What the delivery sends to the queue, recorded once the queue has it (retries carry their delay).
    const sent: OutgoingMessage[] = [];
    const recorded: Queue = {
      name: queue.name,
      send: async (outgoing) => {
        const answer = await queue.send(outgoing);
        sent.push(outgoing);
        return answer;
      },
      receive: (options) => queue.receive(options),
      delete: (handle) => queue.delete(handle),
      changeVisibility: (handle, seconds) => queue.changeVisibility(handle, seconds),
      depth: () => queue.depth(),
    };
    const running: RunningQueuedWebhookDelivery = startQueuedWebhookDelivery({
      env: loadEnv({
        QUEUE_ENABLED: 'true',
        SSRF_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_DELAY: '1000',
        ...env,
      }),
      data,
      media: new MemoryMediaStorage(),
      audit,
      queue: recorded,
      clock: systemClock,
      logger: silentLogger,
    });
    closers.push(async () => {
      await running.close();
      await queues.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const message = (body: string): GatewayEvent => ({
      event: 'message.received',
      sessionId: session.id,
      occurredAt: new Date().toISOString(),
      data: {
        id: `3EB0${Math.random().toString(16).slice(2, 10).toUpperCase()}`,
        messageId: '6f0c0de0-0000-4000-8000-0000000000aa',
        chatId: '15550002222@c.us',
        from: '15550002222@c.us',
        to: '15550001111@c.us',
        author: null,
        body,
        type: 'text',
        timestamp: Math.floor(Date.now() / 1000),
        fromMe: false,
        isGroup: false,
        sender: { phone: '15550002222@c.us', lid: null },
      },
    });
    const addWebhook = async (overrides: Partial<Webhook>) => {
      const webhook = aWebhook({
        sessionId: session.id,
        events: ['message.received'],
        secret: WHSEC_SECRET,
        ...overrides,
      });
      await data.webhooks.create(webhook, { maxPerSession: 0 });
      return webhook;
    };
    const receiver = async (statuses: number[] = []) => {
      const r = await startScriptedReceiver(statuses);
      closers.push(r.close);
      return r;
    };
    const failures = () => data.deliveryFailures.list({}, { limit: 10, offset: 0 });
    return { running, queue, sent, queueClock, data, auditStore, message, addWebhook, receiver, failures };
  }

  it('delivers an enqueued event once, verified both ways, to each webhook it passes the filters of', async () => {
    const { running, queue, message, addWebhook, receiver, failures } = await setUp();
    const a = await receiver();
    const filtered = await receiver();
    await addWebhook({ url: a.url });
    await addWebhook({
      url: filtered.url,
      filters: { conditions: [{ field: 'body', operator: 'contains', value: 'invoice' }] },
    });
    await running.enqueueEvent(message('hello'));
    await until(() => a.received.length === 1);
    await until(async () => (await queue.depth()) === 0);
    expect(a.received[0]?.verified).toBe(true);
    expect(JSON.parse(a.received[0]?.body ?? '{}')).toMatchObject({ event: 'message.received' });
    expect(filtered.received).toEqual([]);
    expect(await failures()).toEqual([]);
  });

  it('retries a failing receiver after the backoff delay, under the same ids and body, until it answers 2xx', async () => {
    const { running, sent, queueClock, message, addWebhook, receiver, failures } = await setUp();
    const r = await receiver([500, 503]);
    await addWebhook({ url: r.url, retryCount: 3 });
    await running.enqueueEvent(message('hello'));
    await until(() => r.received.length === 1);
    // WEBHOOK_RETRY_DELAY 1000 ms: the second attempt waits 1 s, the third 2 s (on the queue's clock).
    for (const [attempt, delayMs] of [
      [2, 1000],
      [3, 2000],
    ] as const) {
      await until(() => sent.length === attempt);
      expect(sent[attempt - 1]?.delaySeconds).toBe(delayMs / 1000);
      queueClock.advance(delayMs - 1);
      await pause(100);
      expect(r.received).toHaveLength(attempt - 1);
      queueClock.advance(1);
      await until(() => r.received.length === attempt);
    }
    expect(r.received.map((d) => d.headers['x-service-retry-count'])).toEqual(['0', '1', '2']);
    expect(new Set(r.received.map((d) => d.headers['x-service-delivery-id'])).size).toBe(1);
    expect(new Set(r.received.map((d) => d.headers['x-service-idempotency-key'])).size).toBe(1);
    expect(new Set(r.received.map((d) => d.body)).size).toBe(1);
    expect(r.received.every((d) => d.verified)).toBe(true);
    await pause(50);
    expect(await failures()).toEqual([]);
  });

  it('records a permanent failure after retryCount attempts and audits webhook_failed', async () => {
    const { running, queue, sent, queueClock, auditStore, message, addWebhook, receiver, failures } =
      await setUp();
    const r = await receiver([500, 500]);
    const webhook = await addWebhook({ url: r.url, retryCount: 2 });
    await running.enqueueEvent(message('hello'));
    await until(() => sent.length === 2);
    queueClock.advance(1000);
    await until(async () => (await failures()).length === 1);
    expect(r.received).toHaveLength(2);
    expect((await failures())[0]).toMatchObject({
      webhookId: webhook.id,
      attempts: 2,
      lastStatusCode: 500,
      url: r.url,
      deliveryId: r.received[0]?.headers['x-service-delivery-id'],
      idempotencyKey: r.received[0]?.headers['x-service-idempotency-key'],
    });
    const audit = await auditStore.query({ action: 'webhook_failed' }, { limit: 10, offset: 0 });
    expect(audit.data).toEqual([expect.objectContaining({ severity: 'warn' })]);
    await until(async () => (await queue.depth()) === 0);
  });

  it('never sends a payload over WEBHOOK_MAX_PAYLOAD_BYTES: a failure row with 0 attempts', async () => {
    const { running, message, addWebhook, receiver, failures } = await setUp({
      WEBHOOK_MAX_PAYLOAD_BYTES: '300',
    });
    const r = await receiver();
    await addWebhook({ url: r.url });
    await running.enqueueEvent(message('x'.repeat(400)));
    await until(async () => (await failures()).length === 1);
    expect((await failures())[0]).toMatchObject({ attempts: 0, deliveryId: null, lastStatusCode: null });
    expect((await failures())[0]?.lastError).toMatch(/exceeding the 300-byte cap/);
    expect(r.received).toEqual([]);
  });

  it('drops a malformed job for good, and leaves a job that met an unavailable store for redelivery', async () => {
    const { running, queue, queueClock, data, message, addWebhook, receiver } = await setUp();
    const r = await receiver();
    await addWebhook({ url: r.url });
    await queue.send({ body: '{"kind":"event","event":{"event":"message.teleported"}}' });
    await until(async () => (await queue.depth()) === 0);
    const listActive = data.webhooks.listActive.bind(data.webhooks);
    let refused = 0;
    data.webhooks.listActive = async (sessionId) => {
      if (refused++ === 0) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Data store is unavailable');
      return listActive(sessionId);
    };
    await running.enqueueEvent(message('hello'));
    await until(() => refused === 1);
    await pause(100);
    expect(r.received).toEqual([]);
    expect(await queue.depth()).toBe(1);
    queueClock.advance(60_000);
    await until(() => r.received.length === 1);
    await until(async () => (await queue.depth()) === 0);
  });

  it('stops consuming at close; what is enqueued afterwards stays on the queue', async () => {
    const { running, queue, message, addWebhook, receiver } = await setUp();
    const r = await receiver();
    await addWebhook({ url: r.url });
    await running.close();
    await running.enqueueEvent(message('after close'));
    await pause(100);
    expect(r.received).toEqual([]);
    expect(await queue.depth()).toBe(1);
  });
});
