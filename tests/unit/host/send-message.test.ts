/**
 * The send step of a `message.send` command against a memory store: the network's delivery ack can arrive before
 * the engine's send resolves (the ack is read on the same socket), and the row must still get its send time and
 * the `message.sent` event exactly once, before or beside the ack's.
 */

import { describe, expect, it } from '@jest/globals';
import type { OutgoingStatus } from '#host/engines/engine-events.js';
import { EventBus } from '#host/events/event-bus.js';
import { createHostEvents } from '#host/events/host-events.js';
import { MessageSink } from '#host/messages/message-sink.js';
import { sendMessage } from '#host/messages/send-message.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { MemoryEventOutbox } from '#shared/adapters/memory/memory-event-outbox.js';
import { MemoryIdentityStore } from '#shared/adapters/memory/memory-identity-store.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryMessageStore } from '#shared/adapters/memory/memory-message-store.js';
import type { CommandOf } from '#shared/domain/commands.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { aMessage } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const SENT_AT = 1_750_000_000;

async function setUp(ackDuringSend: OutgoingStatus['status'] | null) {
  const messages = new MemoryMessageStore();
  const events = new EventBus(silentLogger);
  const { recorder } = createHostEvents({
    outbox: new MemoryEventOutbox(),
    bus: events,
    clock: systemClock,
    logger: silentLogger,
  });
  const seen: GatewayEvent[] = [];
  events.subscribe((event) => {
    seen.push(event);
  });
  const sink = new MessageSink({
    messages,
    identities: new MemoryIdentityStore(),
    media: new MemoryMediaStorage(),
    events: recorder,
    clock: new TestClock(),
    logger: silentLogger,
  });
  const message = aMessage({ direction: 'outgoing', status: 'pending', timestamp: null, body: 'hi' });
  await messages.insert(message);
  const waMessageId = message.waMessageId as string;
  const runner = {
    isConnected: true,
    async send() {
      if (ackDuringSend)
        await sink.status(message.sessionId, { waMessageId, chatId: message.chatId, status: ackDuringSend });
      return { timestamp: SENT_AT };
    },
  } as unknown as SessionRunner;
  const outcomes = new InProcessMessageOutcomes();
  const deps = {
    messages,
    sink,
    runnerOf: () => runner,
    inFlight: new Set<string>(),
    readyWaitMs: 0,
    outcomes,
    logger: silentLogger,
    media: new MemoryMediaStorage(),
  };
  const command: CommandOf<'message.send'> = {
    type: 'message.send',
    sessionId: message.sessionId,
    messageId: message.id,
    requestedAt: new Date().toISOString(),
  };
  return { messages, seen, message, deps, command, outcomes };
}

describe('sendMessage', () => {
  it('tells the request waiting for the message once the row is sent', async () => {
    const { message, deps, command, outcomes } = await setUp(null);
    const waiting = outcomes.settled(message.sessionId, message.id, 5_000);
    await sendMessage(deps, command);
    await expect(waiting).resolves.toBe(true);
  });

  it('tells it too when the send fails (no connected runner), with the row failed', async () => {
    const { messages, message, deps, command, outcomes } = await setUp(null);
    const waiting = outcomes.settled(message.sessionId, message.id, 5_000);
    await sendMessage({ ...deps, runnerOf: () => undefined }, command);
    await expect(waiting).resolves.toBe(true);
    expect(await messages.findById(message.sessionId, message.id)).toMatchObject({ status: 'failed' });
  });

  it('marks the row sent with its time and publishes message.sent', async () => {
    const { messages, seen, message, deps, command } = await setUp(null);
    await sendMessage(deps, command);
    expect(await messages.findById(message.sessionId, message.id)).toMatchObject({
      status: 'sent',
      timestamp: SENT_AT,
    });
    expect(seen.map((e) => e.event)).toEqual(['message.sent']);
  });

  it.each(['delivered', 'read'] as const)(
    'an ack (%s) that overtook the send: the row keeps the ack, gets its time, and message.sent is published once',
    async (ack) => {
      const { messages, seen, message, deps, command } = await setUp(ack);
      await sendMessage(deps, command);
      expect(await messages.findById(message.sessionId, message.id)).toMatchObject({
        status: ack,
        timestamp: SENT_AT,
      });
      expect(seen.map((e) => e.event)).toEqual(['message.ack', 'message.sent']);
      expect(seen[1]).toMatchObject({ data: { id: message.waMessageId, timestamp: SENT_AT } });
      // A redelivered command finds the row no longer pending and does nothing.
      await sendMessage(deps, command);
      expect(seen).toHaveLength(2);
    },
  );
});
