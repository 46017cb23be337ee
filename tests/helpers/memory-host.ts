/**
 * A Host over the memory stores and the test engines, for unit tests of the host itself: its sessions, messages,
 * test network and published events.
 */

import { ChatSink } from '#host/chats/chat-sink.js';
import type { EngineFactory } from '#host/engines/engine.port.js';
import { TestEngineFactory } from '#host/engines/test/test-engine.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { Host } from '#host/host.js';
import { MessageSink } from '#host/messages/message-sink.js';
import type { ConnectSlots } from '#host/sessions/connect-slots.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryChatStore } from '#shared/adapters/memory/memory-chat-store.js';
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
import { createMetrics } from '#shared/observability/metrics.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { memoryStatusSink } from '#tests/helpers/memory-status-sink.js';
import { recordingEvents } from './recording-events.js';

/**
 * A host whose message store is `messages` (a memory store unless a test brings its own); `options` bound its
 * engines (MAX_CONCURRENT_SESSIONS, 0 = none) and the sessions connecting at once.
 */
export function memoryHost<M extends MemoryMessageStore = MemoryMessageStore>(
  messages: M = new MemoryMessageStore() as M,
  options: { maxSessions?: number; connectSlots?: ConnectSlots } = {},
) {
  const sessions = new MemorySessionStore();
  const network = new TestNetwork();
  const engines: EngineFactory = new TestEngineFactory(network);
  const { recorder, published } = recordingEvents();
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
    engines,
    sink: new MessageSink({
      messages,
      identities: new MemoryIdentityStore(),
      media: new MemoryMediaStorage(),
      events: recorder,
      chats: new ChatSink({
        chats: new MemoryChatStore(),
        messages: messages,
        media: new MemoryMediaStorage(),
        logger: silentLogger,
      }),
      statuses: memoryStatusSink(recorder, systemClock),
      clock: systemClock,
      logger: silentLogger,
    }),
    audit: new AuditRecorder(new MemoryAuditLogStore(), systemClock, silentLogger, metrics),
    teardownTimeoutMs: 50,
    commands: new CommandQueue(new MemoryQueue({ name: 'q', fifo: true, visibilityTimeoutSeconds: 30 })),
    metrics,
    maxSessions: options.maxSessions ?? 0,
    ...(options.connectSlots ? { connectSlots: options.connectSlots } : {}),
  });
  return { host, sessions, messages, network, published, engines };
}

/** Resolves once `probe` holds, giving the event loop a turn between tries. */
export async function untilTrue(probe: () => boolean | Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (await probe()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}
