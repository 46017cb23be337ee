/**
 * Records owned by a session (webhooks, automation rules, templates) in a Map: the part their in-memory stores
 * share. Nothing here awaits, so the count that enforces a per-session cap and the insert are atomic.
 */
import { applyPatch } from '#shared/adapters/patch-support.js';
import { type AppError, ConflictError } from '#shared/errors/app-error.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';

interface SessionScoped {
  id: string;
  sessionId: string;
  createdAt: string;
}

export class MemoryScopedRecords<T extends SessionScoped> {
  private readonly byId = new Map<string, T>();

  /**
   * `copy` copies field by field, so callers never hold stored objects and stray fields are dropped; `what` names
   * the record in errors.
   */
  constructor(
    private readonly copy: (record: T) => T,
    private readonly what: string,
  ) {}

  /**
   * Inserts under the cap. `unique` is the store's own uniqueness rule (a name per session): it runs after the cap
   * and before the id check, in the order the SQLite and DynamoDB stores judge them.
   */
  create(
    record: T,
    cap: PerSessionCap,
    limitReached: (max: number) => AppError,
    unique?: (record: T) => void,
  ): void {
    if (cap.maxPerSession > 0 && this.stored(record.sessionId).length >= cap.maxPerSession) {
      throw limitReached(cap.maxPerSession);
    }
    unique?.(record);
    if (this.byId.has(record.id))
      throw new ConflictError('CONFLICT', `A ${this.what} with this id already exists`);
    this.byId.set(record.id, this.copy(record));
  }

  find(sessionId: string, id: string): T | null {
    const record = this.storedOne(sessionId, id);
    return record === undefined ? null : this.copy(record);
  }

  /** Copies of the session's records, sorted by `order`. */
  ofSession(sessionId: string, order: (a: T, b: T) => number): T[] {
    return this.stored(sessionId).sort(order).map(this.copy);
  }

  /** Copies of every record passing `keep`, sorted by `order`. */
  all(keep: (record: T) => boolean, order: (a: T, b: T) => number): T[] {
    return [...this.byId.values()].filter(keep).sort(order).map(this.copy);
  }

  update<K extends keyof T>(
    sessionId: string,
    id: string,
    patch: Partial<Pick<T, K>>,
    fields: readonly K[],
  ): T | null {
    const current = this.storedOne(sessionId, id);
    if (current === undefined) return null;
    const next = this.copy(applyPatch(current, patch, fields));
    this.byId.set(id, next);
    return this.copy(next);
  }

  /** Replaces the stored record in place through `change` (fields no patch may touch, such as lastTriggeredAt). */
  change(sessionId: string, id: string, change: (current: T) => T): void {
    const current = this.storedOne(sessionId, id);
    if (current !== undefined) this.byId.set(id, this.copy(change(current)));
  }

  delete(sessionId: string, id: string): boolean {
    return this.storedOne(sessionId, id) !== undefined && this.byId.delete(id);
  }

  deleteBySession(sessionId: string): number {
    const doomed = this.stored(sessionId);
    for (const record of doomed) this.byId.delete(record.id);
    return doomed.length;
  }

  private storedOne(sessionId: string, id: string): T | undefined {
    const record = this.byId.get(id);
    return record?.sessionId === sessionId ? record : undefined;
  }

  private stored(sessionId: string): T[] {
    return [...this.byId.values()].filter((record) => record.sessionId === sessionId);
  }
}
