import { EventBus } from '#host/events/event-bus.js';
import { createHostEvents } from '#host/events/host-events.js';
import { MemoryEventOutbox } from '#shared/adapters/memory/memory-event-outbox.js';
import type { GatewayEvent } from '#shared/domain/events.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';

/** The host's events over a memory outbox, with every event published on the bus kept in `published`. */
export function recordingEvents() {
  const bus = new EventBus(silentLogger);
  const { recorder } = createHostEvents({
    outbox: new MemoryEventOutbox(),
    bus,
    clock: systemClock,
    logger: silentLogger,
  });
  const published: GatewayEvent[] = [];
  bus.subscribe((event) => {
    published.push(event);
  });
  return { bus, recorder, published };
}
