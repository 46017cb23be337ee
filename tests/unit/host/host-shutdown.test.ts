/**
 * A graceful shutdown does not close the stores under a message still being stored: the network considers a message
 * delivered once the engine received it, so one that was not stored by then is lost for good.
 */

import { describe, expect, it } from '@jest/globals';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { EventBus } from '#host/events/event-bus.js';
import { createHostEvents } from '#host/events/host-events.js';
import { Host } from '#host/host.js';
import { MessageSink } from '#host/messages/message-sink.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryEventOutbox } from '#shared/adapters/memory/memory-event-outbox.js';
import { MemoryIdentityStore } from '#shared/adapters/memory/memory-identity-store.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryMessageStore } from '#shared/adapters/memory/memory-message-store.js';
import { MemoryQueue } from '#shared/adapters/memory/memory-queue.js';
import {
  createMemoryDataStore,
  MemoryAuditLogStore,
  MemorySessionStore,
  MemoryTeardownFenceStore,
} from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import type { OutboxEntryFor } from '#shared/ports/event-outbox.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { aSession } from '#tests/helpers/builders.js';

/** A message store whose inserts wait until the test lets them through (a slow DynamoDB write). */
class GatedMessageStore extends MemoryMessageStore {
  private opened = false;
  private readonly waiting: (() => void)[] = [];

  open(): void {
    this.opened = true;
    for (const release of this.waiting.splice(0)) release();
  }

  override async insert(message: Message, outbox?: OutboxEntryFor): Promise<boolean> {
    if (!this.opened) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.insert(message, outbox);
  }
}

async function until(probe: () => boolean | Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (await probe()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}

describe('Host.shutdown', () => {
  it('resolves only once the messages the engines reported are stored and published', async () => {
    const sessions = new MemorySessionStore();
    const messages = new GatedMessageStore();
    const network = new TestNetwork();
    const events = new EventBus(silentLogger);
    const { recorder } = createHostEvents({
      outbox: new MemoryEventOutbox(),
      bus: events,
      clock: systemClock,
      logger: silentLogger,
    });
    const published: GatewayEvent[] = [];
    events.subscribe((event) => {
      published.push(event);
    });
    const metrics = createMetrics();
    const host = new Host({
      media: new MemoryMediaStorage(),
      outcomes: new InProcessMessageOutcomes(),
      sessions,
      messages,
      data: { ...createMemoryDataStore(), sessions, messages },
      fences: new MemoryTeardownFenceStore(),
      events: recorder,
      clock: systemClock,
      logger: silentLogger,
      engines: new TestEngineFactory(network),
      sink: new MessageSink({
        messages,
        identities: new MemoryIdentityStore(),
        media: new MemoryMediaStorage(),
        events: recorder,
        clock: systemClock,
        logger: silentLogger,
      }),
      audit: new AuditRecorder(new MemoryAuditLogStore(), systemClock, silentLogger, metrics),
      teardownTimeoutMs: 50,
      commands: new CommandQueue(new MemoryQueue({ name: 'q', fifo: true, visibilityTimeoutSeconds: 30 })),
      metrics,
    });
    const session = aSession({ status: 'initializing' });
    await sessions.create(session);
    network.storeCredentials(session.id, { phone: '15550001111', pushName: null });
    await host.handleStart({
      type: 'session.start',
      sessionId: session.id,
      reason: 'requested',
      requestedAt: new Date().toISOString(),
    });
    await until(async () => (await sessions.findById(session.id))?.status === 'ready');

    network.deliverInbound(session.id, {
      waMessageId: 'IN-1',
      chatId: '15557770001@c.us',
      from: '15557770001@c.us',
      to: '15550001111@c.us',
      author: null,
      body: 'sent just before the shutdown',
      type: 'text',
      timestamp: 1_790_000_000,
      pushName: null,
    });
    let shutDown = false;
    const shutdown = host.shutdown().then(() => {
      shutDown = true;
    });
    // The engine is gone (the network holds nothing more for it), the insert still waits.
    await until(async () => (await host.stats()).activeEngines === 0);
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(shutDown).toBe(false);

    messages.open();
    await shutdown;
    expect(await messages.findByWaMessageId(session.id, 'IN-1')).toMatchObject({
      body: 'sent just before the shutdown',
    });
    expect(published.filter((e) => e.event === 'message.received')).toHaveLength(1);
  });
});
