/** In-memory SessionStore: the unit-test fake, behaving like the SQLite adapter (copies, ordering, errors). */
import type { Page } from '../../domain/common.js';
import type { Session, SessionStatus } from '../../domain/session.js';
import { ConflictError } from '../../errors/app-error.js';
import {
  SESSION_PATCH_FIELDS,
  type SessionFilter,
  type SessionPatch,
  type SessionStore,
  type SessionUpdateResult,
} from '../../ports/session-store.port.js';
import { applyPatch, jsonCopy, newestFirst, oldestFirst } from './memory-support.js';

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
    options: { expectStatus?: readonly SessionStatus[] } = {},
  ): Promise<SessionUpdateResult> {
    const current = this.byId.get(id);
    if (current === undefined) return { outcome: 'not_found' };
    if (options.expectStatus !== undefined && !options.expectStatus.includes(current.status)) {
      return { outcome: 'conflict', session: copySession(current) };
    }
    const next = copySession(applyPatch(current, patch, SESSION_PATCH_FIELDS));
    const owner = this.nameOwner(next.name);
    if (owner !== undefined && owner !== id) throw nameTaken(next.name);
    this.byId.set(id, next);
    return { outcome: 'updated', session: copySession(next) };
  }

  async delete(id: string): Promise<boolean> {
    return this.byId.delete(id);
  }

  private nameOwner(name: string): string | undefined {
    for (const session of this.byId.values()) if (session.name === name) return session.id;
    return undefined;
  }
}
