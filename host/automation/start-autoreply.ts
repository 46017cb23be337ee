/**
 * Runs the autoreply evaluator on the host's events: it subscribes to the event bus and never delays a publish
 * (the engine's inbound path awaits the bus), but keeps every evaluation it started so a shutdown can wait for
 * them before the stores and the command queue close.
 */
import type { EventBus } from '#host/events/event-bus.js';
import { type AutoreplyDeps, createAutoreply } from './autoreply.js';

export interface RunningAutoreply {
  /** Resolves once every evaluation started so far has finished (its reply queued, or skipped). */
  drain(): Promise<void>;
  /** Stops taking events, then drains. */
  close(): Promise<void>;
}

/** Subscribes the autoreply evaluator to `events`. */
export function startAutoreply(deps: AutoreplyDeps & { events: EventBus }): RunningAutoreply {
  const consume = createAutoreply(deps);
  const inFlight = new Set<Promise<void>>();
  const unsubscribe = deps.events.subscribe((event) => {
    if (event.event !== 'message.received' && event.event !== 'session.authenticated') return;
    const work = consume(event);
    inFlight.add(work);
    const settled = () => void inFlight.delete(work);
    work.then(settled, settled);
  });
  const drain = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  return {
    drain,
    async close() {
      unsubscribe();
      await drain();
    },
  };
}
