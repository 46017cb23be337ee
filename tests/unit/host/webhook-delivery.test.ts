/**
 * The host's webhook delivery with real parts around the dispatcher: the memory data store, the event bus, the
 * guarded HTTP client and real local HTTP receivers that verify every delivery twice (the standardwebhooks package
 * and the X-Service-Signature HMAC). Retries back off and keep their ids; exhausted deliveries leave failure rows
 * and a webhook_failed audit; a shutdown lets deliveries go on for WEBHOOK_SHUTDOWN_DRAIN_MS, then records what still
 * waits.
 */

import { afterEach, describe, expect, it } from '@jest/globals';
import { EventBus } from '#host/events/event-bus.js';
import { createHostEvents, type HostEvents } from '#host/events/host-events.js';
import { type RunningWebhookDelivery, startWebhookDelivery } from '#host/events/webhook-delivery.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { loadEnv } from '#shared/config/env.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aSession, aWebhook } from '#tests/helpers/builders.js';
import {
  PLAIN_SECRET,
  startScriptedReceiver as receiver,
  WHSEC_SECRET as SECRET,
  until,
} from '#tests/helpers/scripted-receiver.js';

describe('host webhook delivery', () => {
  let running: RunningWebhookDelivery | null = null;
  let hostEvents: HostEvents | null = null;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    const delivered = running?.close();
    await hostEvents?.relay.close();
    await delivered;
    running = null;
    hostEvents = null;
    for (const close of closers.splice(0)) await close();
  });

  async function setUp(env: Record<string, string> = {}) {
    const data = createMemoryDataStore();
    const auditStore = new MemoryAuditLogStore();
    const audit = new AuditRecorder(auditStore, systemClock, silentLogger, createMetrics());
    const session = aSession({ status: 'ready' });
    await data.sessions.create(session);
    running = startWebhookDelivery({
      env: loadEnv({ SSRF_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAY: '20', ...env }),
      data,
      media: new MemoryMediaStorage(),
      audit,
      clock: systemClock,
      logger: silentLogger,
    });
    // The host's whole event path: the outbox, then the relay handing each stored event to the dispatcher.
    hostEvents = createHostEvents(
      { outbox: data.outbox, bus: new EventBus(silentLogger), clock: systemClock, logger: silentLogger },
      { sweepAfterMs: 1_000, sweepIntervalMs: 60_000, sweepBatch: 10, maxInFlight: 1000 },
    );
    hostEvents.relay.addConsumer(running.consumer);
    const events = hostEvents.recorder;
    const relay = hostEvents.relay;
    const status = (occurredAt: string): GatewayEvent => ({
      event: 'session.status',
      sessionId: session.id,
      occurredAt,
      data: { sessionId: session.id, status: 'ready' },
    });
    return { data, auditStore, events, relay, session, status };
  }

  it('delivers a published event once, signed both ways, to each subscribed webhook', async () => {
    const { data, events, session, status } = await setUp();
    const a = await receiver([], SECRET);
    const b = await receiver([], PLAIN_SECRET);
    closers.push(a.close, b.close);
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: a.url, events: ['*'], secret: SECRET }),
      { maxPerSession: 0 },
    );
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: b.url, events: ['session.status'], secret: PLAIN_SECRET }),
      { maxPerSession: 0 },
    );
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: b.url, events: ['message.received'] }),
      { maxPerSession: 0 },
    );
    await events.publish(status('2026-11-26T01:00:00.000Z'));
    await until(() => a.received.length === 1 && b.received.length === 1);
    for (const delivery of [...a.received, ...b.received]) {
      expect(delivery.verified).toBe(true);
      expect(JSON.parse(delivery.body)).toMatchObject({ event: 'session.status', sessionId: session.id });
    }
  });

  it('retries a failing receiver with backoff under the same ids, then records nothing', async () => {
    const { data, events, session, status } = await setUp();
    const r = await receiver([500, 503]);
    closers.push(r.close);
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: r.url, events: ['*'], secret: SECRET, retryCount: 3 }),
      { maxPerSession: 0 },
    );
    await events.publish(status('2026-11-26T01:00:00.000Z'));
    await until(() => r.received.length === 3);
    expect(r.received.map((d) => d.headers['x-service-retry-count'])).toEqual(['0', '1', '2']);
    expect(new Set(r.received.map((d) => d.headers['x-service-delivery-id'])).size).toBe(1);
    expect(new Set(r.received.map((d) => d.body)).size).toBe(1);
    expect(r.received.every((d) => d.verified)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await data.deliveryFailures.list({}, { limit: 10, offset: 0 })).toEqual([]);
  });

  it('records an exhausted delivery with its attempts and last status, and audits webhook_failed', async () => {
    const { data, auditStore, events, session, status } = await setUp();
    const r = await receiver([500, 500]);
    closers.push(r.close);
    const webhook = aWebhook({
      sessionId: session.id,
      url: r.url,
      events: ['session.status'],
      retryCount: 2,
    });
    await data.webhooks.create(webhook, { maxPerSession: 0 });
    await events.publish(status('2026-11-26T01:00:00.000Z'));
    await until(() => r.received.length === 2);
    let failures: Awaited<ReturnType<typeof data.deliveryFailures.list>> = [];
    await until(() => {
      void data.deliveryFailures.list({}, { limit: 10, offset: 0 }).then((rows) => (failures = rows));
      return failures.length === 1;
    });
    expect(failures[0]).toMatchObject({
      webhookId: webhook.id,
      sessionId: session.id,
      event: 'session.status',
      attempts: 2,
      lastStatusCode: 500,
      url: r.url,
    });
    const audit = await auditStore.query({ action: 'webhook_failed' }, { limit: 10, offset: 0 });
    expect(audit.data).toEqual([expect.objectContaining({ severity: 'warn', sessionId: session.id })]);
  });

  it('refuses a private address at delivery when it is not allowed (a failure row, nothing sent)', async () => {
    const { data, events, session, status } = await setUp({ SSRF_ALLOWED_HOSTS: '' });
    const r = await receiver();
    closers.push(r.close);
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: r.url, events: ['*'], retryCount: 1 }),
      { maxPerSession: 0 },
    );
    await events.publish(status('2026-11-26T01:00:00.000Z'));
    let failures: Awaited<ReturnType<typeof data.deliveryFailures.list>> = [];
    await until(() => {
      void data.deliveryFailures.list({}, { limit: 10, offset: 0 }).then((rows) => (failures = rows));
      return failures.length === 1;
    });
    expect(failures[0]?.lastError).toMatch(/loopback/);
    expect(r.received).toEqual([]);
  });

  /**
   * A delivery whose first attempt failed (500), waiting for its retry `retryDelayMs` later, when the delivery is
   * closed with WEBHOOK_SHUTDOWN_DRAIN_MS `drainMs`; answers what close took, the receiver and the failure rows.
   */
  async function closeWithRetryWaiting(retryDelayMs: number, drainMs: number) {
    const { data, events, session, status } = await setUp({
      WEBHOOK_RETRY_DELAY: String(retryDelayMs),
      WEBHOOK_SHUTDOWN_DRAIN_MS: String(drainMs),
    });
    const r = await receiver([500]);
    closers.push(r.close);
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: r.url, events: ['*'], retryCount: 3 }),
      { maxPerSession: 0 },
    );
    await events.publish(status('2026-11-26T01:00:00.000Z'));
    await until(() => r.received.length === 1);
    const started = Date.now();
    await running?.close();
    running = null;
    const tookMs = Date.now() - started;
    return {
      tookMs,
      received: r.received,
      failures: await data.deliveryFailures.list({}, { limit: 10, offset: 0 }),
    };
  }

  it('at shutdown, after the drain, records a delivery waiting for its retry instead of leaving it behind', async () => {
    const { tookMs, failures } = await closeWithRetryWaiting(60_000, 300);
    // The retry is a minute away: the drain waits its 300 ms, then the delivery is recorded with its one attempt.
    expect(tookMs).toBeGreaterThanOrEqual(290);
    expect(tookMs).toBeLessThan(2000);
    expect(failures).toEqual([
      expect.objectContaining({ attempts: 1, lastStatusCode: 500, lastError: 'ConcurrencyLimiter closed' }),
    ]);
  });

  it('at shutdown, a retry due within WEBHOOK_SHUTDOWN_DRAIN_MS is still made, and close returns once it is', async () => {
    const { tookMs, received, failures } = await closeWithRetryWaiting(200, 5000);
    expect(received).toHaveLength(2);
    expect(tookMs).toBeLessThan(2000);
    expect(failures).toEqual([]);
  });

  it('removes the outbox entry once the delivery has its outcome', async () => {
    const { data, events, relay, session, status } = await setUp();
    const r = await receiver([], SECRET);
    closers.push(r.close);
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: r.url, events: ['*'], secret: SECRET }),
      { maxPerSession: 0 },
    );
    await events.publish(status('2026-11-26T01:00:00.000Z'));
    await until(() => r.received.length === 1);
    await relay.drain();
    expect(await data.outbox.count()).toBe(0);
  });

  it('relays an entry a dead process left in the outbox, under the idempotency key of the stored event', async () => {
    const { data, relay, session, status } = await setUp();
    const r = await receiver([], SECRET);
    closers.push(r.close);
    await data.webhooks.create(
      aWebhook({ sessionId: session.id, url: r.url, events: ['*'], secret: SECRET }),
      { maxPerSession: 0 },
    );
    const event = status('2026-11-26T01:00:00.000Z');
    const leftBehind = { id: 'left-behind', event, createdAt: new Date(Date.now() - 5_000).toISOString() };
    const fresh = { id: 'fresh', event, createdAt: new Date().toISOString() };
    await data.outbox.append([leftBehind, fresh]);
    await relay.sweep();
    await until(() => r.received.length === 1);
    await relay.drain();
    // Only the entry older than sweepAfterMs was due; the fresh one may still belong to a live relay.
    expect(await data.outbox.count()).toBe(1);
    const [delivery] = r.received;
    expect(delivery?.verified).toBe(true);
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({
      event: 'session.status',
      sessionId: session.id,
    });
  });

  it('keeps the entry for the sweep when a consumer fails', async () => {
    const { data, events, relay, status } = await setUp();
    relay.addConsumer(async () => {
      throw new Error('queue unavailable');
    });
    await events.publish(status('2026-11-26T01:00:00.000Z'));
    await relay.drain();
    expect(await data.outbox.count()).toBe(1);
  });
});
