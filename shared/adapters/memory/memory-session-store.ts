/** In-memory SessionStore: the unit-test fake, behaving like the SQLite adapter (copies, ordering, errors). */
import { applyPatch } from '#shared/adapters/patch-support.js';
import type { Page } from '#shared/domain/common.js';
import type { Session, SessionStatus } from '#shared/domain/session.js';
import { ConflictError } from '#shared/errors/app-error.js';
import {
  type LeaseClaim,
  leaseEnd,
  leaseLiveAt,
  SESSION_PATCH_FIELDS,
  type SessionFilter,
  type SessionPatch,
  type SessionStore,
  type SessionUpdateOptions,
  type SessionUpdateResult,
  type SessionWriteOptions,
  updateConditionsHold,
} from '#shared/ports/session-store.port.js';
import { MemoryEventOutbox } from './memory-event-outbox.js';
import { jsonCopy, newestFirst, oldestFirst } from './memory-support.js';

/** Field-by-field copy so callers never hold the stored object or its config, and stray fields are dropped. */
function copySession(session: Session): Session {
  return {
    id: session.id,
    name: session.name,
    status: session.status,
    phone: session.phone,
    pushName: session.pushName,
    config: jsonCopy(session.config),
    proxyUrl: session.proxyUrl,
    proxyType: session.proxyType,
    connectedAt: session.connectedAt,
    lastActiveAt: session.lastActiveAt,
    lastError: session.lastError,
    nodeId: session.nodeId,
    nodeUrl: session.nodeUrl,
    claimedAt: session.claimedAt,
    leaseExpiresAt: session.leaseExpiresAt,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
  };
}

function nameTaken(name: string): ConflictError {
  return new ConflictError('SESSION_NAME_EXISTS', `Session name '${name}' already exists`);
}

function matches(session: Session, filter: SessionFilter): boolean {
  if (filter.ids !== undefined && !filter.ids.includes(session.id)) return false;
  if (filter.name !== undefined && session.name !== filter.name) return false;
  return true;
}

/** Sessions in a Map; every method is atomic because nothing in it awaits, so compare-and-set holds. */
export class MemorySessionStore implements SessionStore {
  private readonly byId = new Map<string, Session>();

  /** `outbox`: where `update` stores the entries written with a row (the data store's outbox). */
  constructor(private readonly outbox: MemoryEventOutbox = new MemoryEventOutbox()) {}

  async create(session: Session): Promise<void> {
    if (this.byId.has(session.id))
      throw new ConflictError('CONFLICT', 'A session with this id already exists');
    if (this.nameOwner(session.name) !== undefined) throw nameTaken(session.name);
    this.byId.set(session.id, copySession(session));
  }

  async findById(id: string): Promise<Session | null> {
    const session = this.byId.get(id);
    return session === undefined ? null : copySession(session);
  }

  async list(filter: SessionFilter, page: Page): Promise<Session[]> {
    return [...this.byId.values()]
      .filter((session) => matches(session, filter))
      .sort(newestFirst)
      .slice(page.offset, page.offset + page.limit)
      .map(copySession);
  }

  async listByStatus(statuses: readonly SessionStatus[]): Promise<Session[]> {
    return [...this.byId.values()]
      .filter((session) => statuses.includes(session.status))
      .sort(oldestFirst)
      .map(copySession);
  }

  async countByStatus(filter: SessionFilter): Promise<Partial<Record<SessionStatus, number>>> {
    const counts: Partial<Record<SessionStatus, number>> = {};
    for (const session of this.byId.values()) {
      if (matches(session, filter)) counts[session.status] = (counts[session.status] ?? 0) + 1;
    }
    return counts;
  }

  async update(
    id: string,
    patch: SessionPatch,
    options: SessionWriteOptions = {},
  ): Promise<SessionUpdateResult> {
    const entries = options.outbox ?? [];
    const result = this.writeIf(id, options, (current) => {
      const next = applyPatch(current, patch, SESSION_PATCH_FIELDS);
      const owner = this.nameOwner(next.name);
      if (owner !== undefined && owner !== id) throw nameTaken(next.name);
      // Checked before the row changes, so a taken entry id writes nothing, as a transaction would not.
      for (const entry of entries) this.outbox.assertFree(entry.id);
      return next;
    });
    if (result.outcome === 'updated') for (const entry of entries) this.outbox.writeEntry(entry);
    return result;
  }

  async claimLease(
    id: string,
    claim: LeaseClaim,
    options: { expectStatus?: readonly SessionStatus[] } = {},
  ): Promise<SessionUpdateResult> {
    const current = this.byId.get(id);
    // Free for this node: unowned, lapsed at the claimant's clock, or already its own.
    if (current !== undefined && current.nodeId !== claim.nodeId && leaseLiveAt(current, claim.now)) {
      return { outcome: 'conflict', session: copySession(current) };
    }
    return this.writeIf(id, options, (row) => ({
      ...row,
      nodeId: claim.nodeId,
      nodeUrl: claim.nodeUrl,
      claimedAt: claim.now.toISOString(),
      leaseExpiresAt: leaseEnd(claim),
    }));
  }

  async renewLease(id: string, claim: LeaseClaim): Promise<SessionUpdateResult> {
    return this.writeIf(id, { expectOwner: claim.nodeId }, (row) => ({
      ...row,
      nodeUrl: claim.nodeUrl,
      leaseExpiresAt: leaseEnd(claim),
    }));
  }

  async releaseLease(id: string, nodeId: string): Promise<SessionUpdateResult> {
    return this.writeIf(id, { expectOwner: nodeId }, (row) => ({
      ...row,
      nodeId: null,
      nodeUrl: null,
      claimedAt: null,
      leaseExpiresAt: null,
    }));
  }

  async delete(id: string): Promise<boolean> {
    return this.byId.delete(id);
  }

  /** Writes `change(current)` when every condition holds; nothing in here awaits, so check and write are atomic. */
  private writeIf(
    id: string,
    options: SessionUpdateOptions,
    change: (current: Session) => Session,
  ): SessionUpdateResult {
    const current = this.byId.get(id);
    if (current === undefined) return { outcome: 'not_found' };
    if (!updateConditionsHold(current, options))
      return { outcome: 'conflict', session: copySession(current) };
    const next = copySession(change(current));
    this.byId.set(id, next);
    return { outcome: 'updated', session: copySession(next) };
  }

  private nameOwner(name: string): string | undefined {
    for (const session of this.byId.values()) if (session.name === name) return session.id;
    return undefined;
  }
}
