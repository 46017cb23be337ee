/**
 * The outbox relay as the buffer of a burst: at most `maxInFlight` entries are with the consumers at once; the rest
 * wait in the outbox and are caught up, oldest first, once half the room is free, so a burst beyond what the
 * receivers take is delivered late and never refused.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { OutboxRelay } from '#host/events/outbox-relay.js';
import { MemoryEventOutbox } from '#shared/adapters/memory/memory-event-outbox.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { OutboxEntry } from '#shared/ports/event-outbox.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { messageReceived } from '#tests/helpers/webhook-fixtures.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A consumer that holds every event until the test releases it. */
function holdingConsumer() {
  const held: { event: GatewayEvent; release: () => void }[] = [];
  const seen: string[] = [];
  return {
    held,
    seen,
    consumer: (event: GatewayEvent) =>
      new Promise<void>((release) => {
        seen.push(String((event.data as { id: string }).id));
        held.push({ event, release });
      }),
    async releaseAll() {
      for (const each of held.splice(0)) each.release();
      await settle();
    },
  };
}

/** A relay over an in-memory outbox and a still clock (no sweep of its own), with one holding consumer. */
function relayWith(maxInFlight: number) {
  const clock = new TestClock();
  const outbox = new MemoryEventOutbox();
  const relay = new OutboxRelay(
    { outbox, clock, logger: silentLogger },
    { sweepAfterMs: 60_000, sweepIntervalMs: 60_000, sweepBatch: 100, maxInFlight },
  );
  const consumer = holdingConsumer();
  relay.addConsumer(consumer.consumer);
  return { clock, outbox, relay, consumer };
}

describe('outbox relay backpressure', () => {
  it('hands out at most maxInFlight entries, then catches up on the rest from the outbox, each once', async () => {
    const { clock, outbox, relay, consumer } = relayWith(2);
    const entries: OutboxEntry[] = ['M1', 'M2', 'M3', 'M4', 'M5'].map((id, n) => ({
      id: randomUUID(),
      event: { ...messageReceived, data: { ...messageReceived.data, id } },
      createdAt: new Date(clock.now().getTime() + n).toISOString(),
    }));
    await outbox.append(entries);
    for (const entry of entries) relay.relay(entry);
    await settle();
    expect(consumer.seen).toEqual(['M1', 'M2']);

    // Room frees up: the waiting entries are caught up once they are older than a fresh host's own relaying.
    clock.advance(2000);
    await consumer.releaseAll();
    await settle();
    expect(consumer.seen.slice(2)).toEqual(['M3', 'M4']);
    await consumer.releaseAll();
    await settle();
    expect(consumer.seen).toHaveLength(5);
    expect(consumer.seen.sort()).toEqual(['M1', 'M2', 'M3', 'M4', 'M5']);
    await consumer.releaseAll();
    await relay.drain();
    expect(await outbox.count()).toBe(0);
    await relay.close();
  });

  it('leaves entries younger than a second to their own relay: a catch-up does not race another host for them', async () => {
    const { clock, outbox, relay, consumer } = relayWith(1);
    const [first, second] = ['M1', 'M2'].map((id) => ({
      id: randomUUID(),
      event: { ...messageReceived, data: { ...messageReceived.data, id } },
      createdAt: clock.now().toISOString(),
    })) as [OutboxEntry, OutboxEntry];
    await outbox.append([first, second]);
    relay.relay(first);
    relay.relay(second);
    await consumer.releaseAll();
    await settle();
    // M2 is too young for the catch-up that ran when M1 settled; the next settlement or sweep takes it.
    expect(consumer.seen).toEqual(['M1']);
    await relay.drain();
    expect(await outbox.count()).toBe(1);
    await relay.close();
  });

  it('removes the entries that settle close together in one store call', async () => {
    const clock = new TestClock();
    const outbox = new MemoryEventOutbox();
    const completed: string[][] = [];
    const complete = outbox.complete.bind(outbox);
    outbox.complete = async (ids) => {
      completed.push([...ids]);
      await complete(ids);
    };
    const relay = new OutboxRelay(
      { outbox, clock, logger: silentLogger },
      { sweepAfterMs: 60_000, sweepIntervalMs: 60_000, sweepBatch: 100, maxInFlight: 10 },
    );
    relay.addConsumer(async () => {});
    const entries: OutboxEntry[] = ['M1', 'M2', 'M3'].map((id) => ({
      id: randomUUID(),
      event: { ...messageReceived, data: { ...messageReceived.data, id } },
      createdAt: clock.now().toISOString(),
    }));
    await outbox.append(entries);
    // They settle a turn of the event loop apart, as the events of consecutive messages do.
    for (const entry of entries) {
      relay.relay(entry);
      await settle();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(completed).toEqual([entries.map((entry) => entry.id)]);
    expect(await outbox.count()).toBe(0);
    await relay.close();
  });
});
