/**
 * The host's only path for writing a session's status: each write goes through the pure status machine and a
 * compare-and-set on the row, one at a time per session, and a real change publishes `session.status`.
 */
import type { EmittedEventName, GatewayEventMap } from '#shared/domain/events.js';
import type { Session } from '#shared/domain/session.js';
import {
  ENGINE_ENDING_TRIGGERS,
  nextStatus,
  type SessionTrigger,
} from '#shared/domain/session-status-machine.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { EventPublisher } from '#shared/ports/event-publisher.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { SessionPatch, SessionStore } from '#shared/ports/session-store.port.js';

export interface StatusWriterDeps {
  sessions: SessionStore;
  events: EventPublisher;
  clock: Clock;
  logger: Logger;
  /**
   * Multi-node: this node's id. Every write then also requires the row's lease to be this node's, so an engine
   * whose lease was lost can never overwrite the state the new owner writes.
   */
  owner?: string;
}

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
   * alone. Answers the row as it stands afterwards (null once the session is deleted).
   */
  apply(trigger: SessionTrigger, patch: SessionPatch = {}): Promise<Session | null> {
    const next = this.chain.then(() => this.applyNow(trigger, patch));
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

  private async applyNow(trigger: SessionTrigger, patch: SessionPatch): Promise<Session | null> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.sessions.findById(this.sessionId);
      if (!current) return null;
      const to = nextStatus(current.status, trigger);
      if (to === null) {
        this.deps.logger.debug(
          { sessionId: this.sessionId, from: current.status, trigger },
          'transition not allowed; ignored',
        );
        return current;
      }
      // The write that ends the engine gives the lease back with it (see ENGINE_ENDING_TRIGGERS).
      const release = this.deps.owner !== undefined && ENGINE_ENDING_TRIGGERS.has(trigger);
      const result = await this.deps.sessions.update(
        this.sessionId,
        { ...patch, ...(release ? UNOWNED : {}), status: to, updatedAt: this.now() },
        { ...this.ownerCondition(), expectStatus: [current.status] },
      );
      if (result.outcome === 'not_found') return null;
      if (result.outcome === 'conflict') {
        // Not our row any more (lease lost): leave it to its owner.
        if (this.deps.owner !== undefined && result.session.nodeId !== this.deps.owner) return result.session;
        continue;
      }
      if (to !== current.status) await this.publishStatus(result.session);
      return result.session;
    }
    this.deps.logger.warn(
      { sessionId: this.sessionId, trigger },
      'status write lost repeated races; skipped',
    );
    return this.deps.sessions.findById(this.sessionId);
  }

  private publishStatus(session: Session): Promise<void> {
    return this.publish('session.status', { sessionId: session.id, status: session.status });
  }

  /** Publishes one of the session's events now; a failed publish is logged, never thrown. */
  async publish<K extends EmittedEventName>(event: K, data: GatewayEventMap[K]): Promise<void> {
    try {
      await this.deps.events.publish({
        event,
        sessionId: this.sessionId,
        occurredAt: this.now(),
        data,
      } as Parameters<StatusWriterDeps['events']['publish']>[0]);
    } catch (error) {
      this.deps.logger.error({ err: error, sessionId: this.sessionId, event }, 'event publish failed');
    }
  }
}
