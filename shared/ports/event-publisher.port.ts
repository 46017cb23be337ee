import type { GatewayEvent } from '#shared/domain/events.js';

/** Where the host publishes domain events (webhook fan-out, metrics). Must not throw into the engine. */
export interface EventPublisher {
  publish(event: GatewayEvent): Promise<void>;
}
