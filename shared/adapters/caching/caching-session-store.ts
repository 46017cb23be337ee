/**
 * Read-through, write-through cache of sessions by id, for a process that is the only writer of its data store
 * (the embedded mode: functions and host share one SessionStore). Every write goes through this object, so a
 * cached row is never older than the store; `ttlMs` bounds staleness should another process write anyway.
 */
import type { Page } from '#shared/domain/common.js';
import type { Session, SessionStatus } from '#shared/domain/session.js';
import type {
  LeaseClaim,
  SessionFilter,
  SessionPatch,
  SessionStore,
  SessionUpdateResult,
  SessionWriteOptions,
} from '#shared/ports/session-store.port.js';

// Config keys the gateway reads are flat; a shallow copy of it keeps callers from changing the cached row.
const copy = (session: Session): Session => ({ ...session, config: { ...session.config } });

export class CachingSessionStore implements SessionStore {
  private readonly byId = new Map<string, { session: Session; expiresAt: number }>();

  constructor(
    private readonly inner: SessionStore,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 10_000,
  ) {}

  async findById(id: string): Promise<Session | null> {
    const cached = this.byId.get(id);
    if (cached && cached.expiresAt > this.now()) return copy(cached.session);
    const session = await this.inner.findById(id);
    if (session) this.remember(session);
    else this.byId.delete(id);
    return session;
  }

  async create(session: Session): Promise<void> {
    await this.inner.create(session);
    this.remember(session);
  }

  update(id: string, patch: SessionPatch, options?: SessionWriteOptions): Promise<SessionUpdateResult> {
    return this.writeThrough(id, () => this.inner.update(id, patch, options));
  }

  claimLease(
    id: string,
    claim: LeaseClaim,
    options?: { expectStatus?: readonly SessionStatus[] },
  ): Promise<SessionUpdateResult> {
    return this.writeThrough(id, () => this.inner.claimLease(id, claim, options));
  }

  renewLease(id: string, claim: LeaseClaim): Promise<SessionUpdateResult> {
    return this.writeThrough(id, () => this.inner.renewLease(id, claim));
  }

  releaseLease(id: string, nodeId: string): Promise<SessionUpdateResult> {
    return this.writeThrough(id, () => this.inner.releaseLease(id, nodeId));
  }

  async delete(id: string): Promise<boolean> {
    this.byId.delete(id);
    return this.inner.delete(id);
  }

  list(filter: SessionFilter, page: Page): Promise<Session[]> {
    return this.inner.list(filter, page);
  }

  listByStatus(statuses: readonly SessionStatus[]): Promise<Session[]> {
    return this.inner.listByStatus(statuses);
  }

  countByStatus(filter: SessionFilter): Promise<Partial<Record<SessionStatus, number>>> {
    return this.inner.countByStatus(filter);
  }

  /**
   * Runs a conditional write with the row dropped meanwhile (a read racing it re-reads the store). Updated and
   * conflict both answer the row as it stands, so either is cached; not_found leaves nothing to cache.
   */
  private async writeThrough(
    id: string,
    write: () => Promise<SessionUpdateResult>,
  ): Promise<SessionUpdateResult> {
    this.byId.delete(id);
    const result = await write();
    if (result.outcome === 'not_found') this.byId.delete(id);
    else this.remember(result.session);
    return result;
  }

  private remember(session: Session): void {
    if (this.byId.size >= this.maxEntries) this.byId.clear();
    this.byId.set(session.id, { session: copy(session), expiresAt: this.now() + this.ttlMs });
  }
}
