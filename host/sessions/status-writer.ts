/**
 * The host's only path for writing a session's status: each write goes through the pure status machine and a
 * compare-and-set on the row, one at a time per session. A real change publishes `session.status`, and the events
 * that describe the change (`session.disconnected` with `connection_lost`, …) go with it: their outbox entries are
 * written in the row's own transaction, so a crash leaves the row and its events both written or both unwritten.
 */
import type { EventRecorder } from '#host/events/durable-events.js';
import type { EmittedEventName, GatewayEvent, GatewayEventMap } from '#shared/domain/events.js';
import type { Session } from '#shared/domain/session.js';
import {
  ENGINE_ENDING_TRIGGERS,
  nextStatus,
  type SessionTrigger,
} from '#shared/domain/session-status-machine.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { SessionPatch, SessionStore } from '#shared/ports/session-store.port.js';

export interface StatusWriterDeps {
  sessions: SessionStore;
  events: EventRecorder;
  clock: Clock;
  logger: Logger;
  /**
   * Multi-node: this node's id. Every write then also requires the row's lease to be this node's, so an engine
   * whose lease was lost can never overwrite the state the new owner writes.
   */
  owner?: string;
}

/** One of the session's events, by name and data (the writer adds the session id and the time). */
export type SessionEvent = {
  [K in EmittedEventName]: { event: K; data: GatewayEventMap[K] };
}[EmittedEventName];

const MAX_CAS_ATTEMPTS = 3;
const UNOWNED: SessionPatch = { nodeId: null, nodeUrl: null, claimedAt: null, leaseExpiresAt: null };

export class SessionStatusWriter {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: StatusWriterDeps,
    readonly sessionId: string,
  ) {}

  /**
   * Applies `trigger` (and `patch`) if the machine allows it from the current status; otherwise leaves the row
   * alone. `events` are stored with the row's write (after its `session.status`); when nothing is written (the
   * machine refused, the row is gone or another node's) they are published on their own, since they happened
   * anyway. Answers the row as it stands afterwards (null once the session is deleted).
   */
  apply(
    trigger: SessionTrigger,
    patch: SessionPatch = {},
    events: readonly SessionEvent[] = [],
  ): Promise<Session | null> {
    const next = this.chain.then(() => this.applyNow(trigger, patch, events));
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Writes fields that are not a status change (e.g. lastError during backoff), serialised with the rest. */
  patch(patch: SessionPatch): Promise<Session | null> {
    const next = this.chain.then(async () => {
      const result = await this.deps.sessions.update(
        this.sessionId,
        { ...patch, updatedAt: this.now() },
        this.ownerCondition(),
      );
      return result.outcome === 'not_found' ? null : result.session;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  private ownerCondition(): { expectOwner?: string } {
    return this.deps.owner === undefined ? {} : { expectOwner: this.deps.owner };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private async applyNow(
    trigger: SessionTrigger,
    patch: SessionPatch,
    events: readonly SessionEvent[],
  ): Promise<Session | null> {
    const written = await this.write(trigger, patch, events);
    if (written.entries) {
      await this.announce(written.entries);
    } else {
      for (const event of events) await this.publishNow(this.eventOf(event));
    }
    return written.session;
  }

  /** The compare-and-set write; `entries` are the outbox entries stored with it, absent when nothing was written. */
  private async write(
    trigger: SessionTrigger,
    patch: SessionPatch,
    events: readonly SessionEvent[],
  ): Promise<{ session: Session | null; entries?: OutboxEntry[] }> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.sessions.findById(this.sessionId);
      if (!current) return { session: null };
      const to = nextStatus(current.status, trigger);
      if (to === null) {
        this.deps.logger.debug(
          { sessionId: this.sessionId, from: current.status, trigger },
          'transition not allowed; ignored',
        );
        return { session: current };
      }
      const status: SessionEvent[] =
        to === current.status
          ? []
          : [{ event: 'session.status', data: { sessionId: this.sessionId, status: to } }];
      const entries = [...status, ...events].map((event) => this.deps.events.entry(this.eventOf(event)));
      // The write that ends the engine gives the lease back with it (see ENGINE_ENDING_TRIGGERS).
      const release = this.deps.owner !== undefined && ENGINE_ENDING_TRIGGERS.has(trigger);
      const result = await this.deps.sessions.update(
        this.sessionId,
        { ...patch, ...(release ? UNOWNED : {}), status: to, updatedAt: this.now() },
        { ...this.ownerCondition(), expectStatus: [current.status], outbox: entries },
      );
      if (result.outcome === 'not_found') return { session: null };
      if (result.outcome === 'conflict') {
        // Not our row any more (lease lost): leave it to its owner.
        if (this.deps.owner !== undefined && result.session.nodeId !== this.deps.owner) {
          return { session: result.session };
        }
        continue;
      }
      return { session: result.session, entries };
    }
    this.deps.logger.warn(
      { sessionId: this.sessionId, trigger },
      'status write lost repeated races; skipped',
    );
    return { session: await this.deps.sessions.findById(this.sessionId) };
  }

  private eventOf(event: SessionEvent): GatewayEvent {
    return { ...event, sessionId: this.sessionId, occurredAt: this.now() } as GatewayEvent;
  }

  /** Tells the bus and the relay of entries stored with the row; a failure is logged (the sweep relays them). */
  private async announce(entries: readonly OutboxEntry[]): Promise<void> {
    for (const entry of entries) {
      try {
        await this.deps.events.stored(entry);
      } catch (error) {
        this.deps.logger.error(
          { err: error, sessionId: this.sessionId, event: entry.event.event },
          'event announce failed',
        );
      }
    }
  }

  /** Publishes one of the session's events that has no row of its own to go with (calls). */
  publish<K extends EmittedEventName>(event: K, data: GatewayEventMap[K]): Promise<void> {
    return this.publishNow(this.eventOf({ event, data } as SessionEvent));
  }

  /** Stores and announces an event on its own; a failed publish is logged, never thrown. */
  private async publishNow(event: GatewayEvent): Promise<void> {
    try {
      await this.deps.events.publish(event);
    } catch (error) {
      this.deps.logger.error(
        { err: error, sessionId: this.sessionId, event: event.event },
        'event publish failed',
      );
    }
  }
}
