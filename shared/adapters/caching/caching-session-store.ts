/**
 * Read-through, write-through cache of sessions by id, for a process that is the only writer of its data store
 * (the embedded mode: functions and host share one SessionStore). Every write goes through this object, so a
 * cached row is never older than the store; `ttlMs` bounds staleness should another process write anyway.
 */
import type { Page } from '../../domain/common.js';
import type { Session, SessionStatus } from '../../domain/session.js';
import type {
  SessionFilter,
  SessionPatch,
  SessionStore,
  SessionUpdateResult,
} from '../../ports/session-store.port.js';

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

  async update(
    id: string,
    patch: SessionPatch,
    options?: { expectStatus?: readonly SessionStatus[] },
  ): Promise<SessionUpdateResult> {
    this.byId.delete(id);
    const result = await this.inner.update(id, patch, options);
    if (result.outcome !== 'not_found') this.remember(result.session);
    return result;
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

  private remember(session: Session): void {
    if (this.byId.size >= this.maxEntries) this.byId.clear();
    this.byId.set(session.id, { session: copy(session), expiresAt: this.now() + this.ttlMs });
  }
}
