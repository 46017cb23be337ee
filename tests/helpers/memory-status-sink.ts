/** A StatusSink on memory stores, for hosts built in tests that do not look at statuses. */
import type { EventRecorder } from '#host/events/durable-events.js';
import { StatusSink } from '#host/statuses/status-sink.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryStatusStore } from '#shared/adapters/memory/memory-status-store.js';
import { personLookup } from '#shared/domain/person-ids.js';
import type { Clock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';

export function memoryStatusSink(events: EventRecorder, clock: Clock): StatusSink {
  return new StatusSink({
    statuses: new MemoryStatusStore(),
    media: new MemoryMediaStorage(),
    events,
    people: async () => personLookup(new Map()),
    clock,
    logger: silentLogger,
  });
}
