/**
 * The in-process event bus: the host publishes domain events here and subscribers (webhook fan-out, logs) take
 * them. A failing subscriber is logged and never reaches the engine that produced the event.
 */
import type { GatewayEvent } from '#shared/domain/events.js';
import type { EventPublisher } from '#shared/ports/event-publisher.port.js';
import type { Logger } from '#shared/ports/logger.port.js';

export type EventSubscriber = (event: GatewayEvent) => Promise<void> | void;

export class EventBus implements EventPublisher {
  private readonly subscribers: EventSubscriber[] = [];

  constructor(private readonly logger: Logger) {}

  subscribe(subscriber: EventSubscriber): () => void {
    this.subscribers.push(subscriber);
    return () => {
      const index = this.subscribers.indexOf(subscriber);
      if (index >= 0) this.subscribers.splice(index, 1);
    };
  }

  async publish(event: GatewayEvent): Promise<void> {
    this.logger.debug({ event: event.event, sessionId: event.sessionId }, 'event');
    await Promise.all(
      this.subscribers.map(async (subscriber) => {
        try {
          await subscriber(event);
        } catch (error) {
          this.logger.error({ err: error, event: event.event }, 'event subscriber failed');
        }
      }),
    );
  }
}
