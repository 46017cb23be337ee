/**
 * Assembles the host's event path: the outbox relay and the durable publisher around the in-process bus. The
 * relay's consumers (webhook delivery, autoreply) are added by the composition root.
 */
import type { Clock } from '#shared/ports/clock.port.js';
import type { EventOutbox } from '#shared/ports/event-outbox.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { DurableEvents } from './durable-events.js';
import type { EventBus } from './event-bus.js';
import { OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';

/** Relay timings when the environment does not set them (the host reads OUTBOX_* from its env). */
export const DEFAULT_RELAY_OPTIONS: OutboxRelayOptions = {
  sweepAfterMs: 30_000,
  sweepIntervalMs: 5_000,
  sweepBatch: 100,
  maxInFlight: 1000,
};

export interface HostEvents {
  recorder: DurableEvents;
  relay: OutboxRelay;
}

export function createHostEvents(
  deps: { outbox: EventOutbox; bus: EventBus; clock: Clock; logger: Logger },
  options: OutboxRelayOptions = DEFAULT_RELAY_OPTIONS,
): HostEvents {
  const relay = new OutboxRelay(deps, options);
  return { relay, recorder: new DurableEvents({ ...deps, relay }) };
}
