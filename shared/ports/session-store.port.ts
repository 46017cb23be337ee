import type { Page } from '../domain/common.js';
import { type Session, Session as SessionSchema, type SessionStatus } from '../domain/session.js';

export type SessionPatch = Partial<Omit<Session, 'id' | 'createdAt'>>;

/** Every field of a session row, in schema order (adapters map rows and items field by field). */
export const SESSION_FIELDS = SessionSchema.keyof().options;

/** The fields an update may change: all but the identity and the creation time. */
export const SESSION_PATCH_FIELDS = SESSION_FIELDS.filter(
  (field): field is keyof SessionPatch => field !== 'id' && field !== 'createdAt',
);

export type SessionUpdateResult =
  | { outcome: 'updated'; session: Session }
  | { outcome: 'not_found' }
  /** The row's status was not one of `expectStatus`; nothing was written. */
  | { outcome: 'conflict'; session: Session };

export interface SessionFilter {
  /** Only these ids (a scoped key's allowedSessions). `undefined` = every session. */
  ids?: readonly string[];
  name?: string;
}

/** Sessions in the data store. Names are unique. */
export interface SessionStore {
  /** Inserts a session; a taken name raises ConflictError SESSION_NAME_EXISTS. */
  create(session: Session): Promise<void>;
  findById(id: string): Promise<Session | null>;
  /** Sessions matching the filter, newest first. */
  list(filter: SessionFilter, page: Page): Promise<Session[]>;
  /** Sessions in any of the given statuses (host boot and sweeps), oldest first. */
  listByStatus(statuses: readonly SessionStatus[]): Promise<Session[]>;
  /** Count per status of the sessions matching the filter. */
  countByStatus(filter: SessionFilter): Promise<Partial<Record<SessionStatus, number>>>;
  /**
   * Updates a row; with `expectStatus` the write happens only if the current status is one of them (compare and
   * set), so two concurrent starts cannot both win.
   */
  update(
    id: string,
    patch: SessionPatch,
    options?: { expectStatus?: readonly SessionStatus[] },
  ): Promise<SessionUpdateResult>;
  /** Deletes the row; false when it did not exist. */
  delete(id: string): Promise<boolean>;
}

/**
 * Teardown fences, keyed by session name: a logout whose credential teardown outlived its deadline leaves a fence
 * until it settles, and start/delete of that name refuse with 409 SESSION_NAME_TEARDOWN_PENDING meanwhile.
 */
export interface TeardownFenceStore {
  put(name: string, expiresAt: Date): Promise<void>;
  clear(name: string): Promise<void>;
  isActive(name: string, now: Date): Promise<boolean>;
}
