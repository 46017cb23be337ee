/**
 * How the host tells the world about an event: first the outbox (with the row the event describes, through the
 * message store, or on its own), then the in-process bus (metrics, logs, tests) and the relay to the durable
 * consumers. An event is never handed to delivery before it is stored, so a crash at any moment leaves it either
 * unwritten together with its row, or in the outbox for the next sweep.
 */
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Clock } from '#shared/ports/clock.port.js';
import { type EventOutbox, type OutboxEntry, outboxEntry } from '#shared/ports/event-outbox.port.js';
import type { EventPublisher } from '#shared/ports/event-publisher.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { EventBus } from './event-bus.js';
import type { OutboxRelay } from './outbox-relay.js';

export interface DurableEventsDeps {
  outbox: EventOutbox;
  bus: EventBus;
  relay: OutboxRelay;
  clock: Clock;
  logger: Logger;
}

/** The host's event publisher (see the module comment). */
export interface EventRecorder extends EventPublisher {
  /** A new outbox entry for `event`, for a store to write in the same transaction as the event's row. */
  entry(event: GatewayEvent): OutboxEntry;
  /** Announces an entry whose store has written it: the bus hears it, the relay takes it to delivery. */
  stored(entry: OutboxEntry): Promise<void>;
}

export class DurableEvents implements EventRecorder {
  constructor(private readonly deps: DurableEventsDeps) {}

  entry(event: GatewayEvent): OutboxEntry {
    return outboxEntry(event, this.deps.clock.now());
  }

  async stored(entry: OutboxEntry): Promise<void> {
    this.deps.relay.relay(entry);
    await this.deps.bus.publish(entry.event);
  }

  /** Stores an event that has no row of its own (session and call events), then announces it. */
  async publish(event: GatewayEvent): Promise<void> {
    const entry = this.entry(event);
    try {
      await this.deps.outbox.append([entry]);
    } catch (error) {
      // The event still happened: deliver it without the outbox's guarantee rather than not at all.
      this.deps.logger.error({ err: error, event: event.event }, 'outbox append failed; delivering unstored');
      this.deps.relay.relayUnstored(event);
      await this.deps.bus.publish(event);
      return;
    }
    await this.stored(entry);
  }
}
