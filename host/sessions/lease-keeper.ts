/**
 * Multi-node ownership of this host's sessions (DESIGN §3): claims a session's lease before its engine starts,
 * renews every lease it holds on a timer, and reports a lease as lost when the row names another node (or none),
 * or when renewals kept failing until the lease would run out: the host then stops that engine without writing
 * the row, because the row is no longer its to write. Before another node can claim a lapsed lease, this node has
 * already given it up (renewal every LEASE_RENEW_MS ≤ TTL/2), so no session ever has two live engines.
 */
import type { Session, SessionStatus } from '#shared/domain/session.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { LeaseClaim, SessionStore } from '#shared/ports/session-store.port.js';

export interface LeaseKeeperOptions {
  sessions: SessionStore;
  clock: Clock;
  logger: Logger;
  nodeId: string;
  nodeUrl: string;
  ttlMs: number;
  renewMs: number;
}

export type ClaimResult =
  | { outcome: 'claimed'; session: Session }
  /** Another node holds a live lease, or the row no longer matches `expectStatus`. */
  | { outcome: 'refused'; session: Session }
  | { outcome: 'not_found' }
  /** The keeper is giving its leases back (shutdown): no lease is taken any more. */
  | { outcome: 'closed' };

export class LeaseKeeper {
  /** Sessions this node holds, with the expiry its last successful write set. */
  private readonly held = new Map<string, number>();
  /** Held leases whose engine ended: given back at the next renewal round (see `retire`). */
  private readonly ending = new Set<string>();
  /** Set once releaseAll began: from then on no lease is taken (see claim). */
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: LeaseKeeperOptions,
    private readonly onLost: (sessionId: string) => void,
  ) {}

  get nodeId(): string {
    return this.options.nodeId;
  }

  /** Takes the session's lease unless another node holds a live one (or the status is not one of `expectStatus`). */
  async claim(sessionId: string, expectStatus?: readonly SessionStatus[]): Promise<ClaimResult> {
    if (this.closed) return { outcome: 'closed' };
    const claim = this.claimNow();
    const result = await this.options.sessions.claimLease(
      sessionId,
      claim,
      expectStatus ? { expectStatus } : {},
    );
    if (result.outcome === 'not_found') return result;
    if (result.outcome === 'conflict') return { outcome: 'refused', session: result.session };
    if (this.closed) {
      // releaseAll took its list while this claim was on its way: kept, the lease would outlive the host unrenewed
      // and keep every other host away from the session until its TTL ran out. Given back at once instead.
      await this.giveBack(sessionId);
      return { outcome: 'closed' };
    }
    this.held.set(sessionId, claim.now.getTime() + claim.ttlMs);
    this.ending.delete(sessionId);
    return { outcome: 'claimed', session: result.session };
  }

  holds(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  /**
   * The session's engine ended here (stop, logout, failure): the lease is forgotten at the next renewal round
   * instead of now, because the runner's final status write comes after its end and must still find the row ours.
   * That write normally gives the lease back itself (ENGINE_ENDING_TRIGGERS); the round's release then finds
   * nothing to do, and covers an engine that ended without one.
   */
  retire(sessionId: string): void {
    if (this.held.has(sessionId)) this.ending.add(sessionId);
  }

  /**
   * Gives the lease up (shutdown, after the engines stopped) so another node may adopt the session at once. Answers
   * the row as released, or null when this node held no lease of it or the release did not happen.
   */
  async release(sessionId: string): Promise<Session | null> {
    this.ending.delete(sessionId);
    if (!this.held.delete(sessionId)) return null;
    return this.giveBack(sessionId);
  }

  /**
   * Releases every lease this node holds (shutdown, after the engines stopped) and takes none from then on; answers
   * the rows released.
   */
  async releaseAll(): Promise<Session[]> {
    this.closed = true;
    const released = await Promise.all([...this.held.keys()].map((sessionId) => this.release(sessionId)));
    return released.filter((session) => session !== null);
  }

  start(): void {
    this.timer ??= setInterval(() => {
      this.renewing = this.renewing.then(() => this.renewAll());
    }, this.options.renewMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewing;
  }

  /** One renewal round (the timer calls it; exposed so tests need not wait for the interval). */
  async renewAll(): Promise<void> {
    await Promise.all(
      [...this.held.keys()].map((sessionId) =>
        this.ending.has(sessionId) ? this.release(sessionId) : this.renew(sessionId),
      ),
    );
  }

  private async renew(sessionId: string): Promise<void> {
    const claim = this.claimNow();
    try {
      const result = await this.options.sessions.renewLease(sessionId, claim);
      if (!this.held.has(sessionId)) return; // released meanwhile
      if (result.outcome === 'updated') {
        this.held.set(sessionId, claim.now.getTime() + claim.ttlMs);
        return;
      }
      if (result.outcome === 'conflict' && result.session.nodeId === null) {
        // Given back by this node's own final status write before the runner reported its end.
        this.lose(sessionId, 'released by the final status write', 'debug');
        return;
      }
      this.lose(
        sessionId,
        result.outcome === 'conflict' ? `now held by ${result.session.nodeId}` : 'row deleted',
      );
    } catch (error) {
      const expiresAt = this.held.get(sessionId);
      if (expiresAt === undefined) return;
      // One failed renewal is not a loss; one that leaves no time for another attempt before expiry is.
      const nextAttempt = this.options.clock.now().getTime() + this.options.renewMs;
      this.options.logger.warn({ err: error, sessionId }, 'lease renewal failed');
      if (nextAttempt >= expiresAt) this.lose(sessionId, 'renewals failed until the lease ran out');
    }
  }

  /** The release write (conditional on this node holding the lease, so it never clears another node's). */
  private async giveBack(sessionId: string): Promise<Session | null> {
    try {
      const result = await this.options.sessions.releaseLease(sessionId, this.options.nodeId);
      return result.outcome === 'updated' ? result.session : null;
    } catch (error) {
      // The lease then simply lapses after its TTL; nothing else depends on the release.
      this.options.logger.warn({ err: error, sessionId }, 'lease release failed; it will lapse');
      return null;
    }
  }

  private lose(sessionId: string, reason: string, level: 'warn' | 'debug' = 'warn'): void {
    this.held.delete(sessionId);
    this.ending.delete(sessionId);
    this.options.logger[level]({ sessionId, reason }, 'session lease lost; stopping the local engine');
    this.onLost(sessionId);
  }

  private claimNow(): LeaseClaim {
    const { nodeId, nodeUrl, ttlMs } = this.options;
    return { nodeId, nodeUrl, ttlMs, now: this.options.clock.now() };
  }
}
