import { isDeepStrictEqual } from 'node:util';
import type { Page } from '#shared/domain/common.js';
import {
  type Session,
  type SessionConfig,
  Session as SessionSchema,
  type SessionStatus,
} from '#shared/domain/session.js';
import type { OutboxEntry } from './event-outbox.port.js';

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
  /** A condition did not hold (status, owner, unowned, or a lease held by another node); nothing was written. */
  | { outcome: 'conflict'; session: Session };

/** Conditions of an update; every given one must hold or nothing is written (outcome `conflict`). */
export interface SessionUpdateOptions {
  /** The current status is one of these (compare and set). */
  expectStatus?: readonly SessionStatus[];
  /** This node holds the row's lease (`nodeId` equals): the host's writes in multi-node mode. */
  expectOwner?: string;
  /**
   * No node holds a live lease at this instant (`nodeId` null, or `leaseExpiresAt` at or before it): what a
   * function writes for a session no host runs, so it can never overwrite a live owner's state.
   */
  expectUnownedAt?: Date;
  /**
   * The stored `config` still equals this one (read, merged, written back): of two concurrent config changes made
   * from the same read, exactly one is written and the other answers conflict instead of silently undoing the first.
   */
  expectConfig?: SessionConfig;
}

/** An update's conditions, and what it writes beside the row. */
export interface SessionWriteOptions extends SessionUpdateOptions {
  /**
   * Outbox entries (the session's events) written in the same transaction as the row, and only when the row is:
   * a crash leaves the row and its events both written or both unwritten (DynamoDB: one TransactWriteItems).
   */
  outbox?: readonly OutboxEntry[];
}

/** A node's claim on a session in multi-node mode (DESIGN §3). */
export interface LeaseClaim {
  nodeId: string;
  /** Where functions reach the node's RPC API. */
  nodeUrl: string;
  /** The claimant's clock: the lease runs until `now + ttlMs`. */
  now: Date;
  ttlMs: number;
}

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
  /** Sessions in any of the given statuses (host boot and lease sweeps), oldest first. */
  listByStatus(statuses: readonly SessionStatus[]): Promise<Session[]>;
  /** Count per status of the sessions matching the filter. */
  countByStatus(filter: SessionFilter): Promise<Partial<Record<SessionStatus, number>>>;
  /**
   * Updates a row; with `expectStatus` the write happens only if the current status is one of them (compare and
   * set), so two concurrent starts cannot both win. `outbox` entries are stored with the row (see
   * SessionWriteOptions); a taken entry id raises ConflictError and writes nothing.
   */
  update(id: string, patch: SessionPatch, options?: SessionWriteOptions): Promise<SessionUpdateResult>;
  /**
   * Takes the session's lease for `claim.nodeId` when no other node holds a live one (nodeId null, lease expired at
   * `claim.now`, or already this node's): sets nodeId, nodeUrl, claimedAt = now and leaseExpiresAt = now + ttl in
   * one conditional write, so of two nodes racing for a lapsed session exactly one wins. `expectStatus` narrows it
   * further (a sweep claims only sessions that should be running). `updatedAt` is not touched: leases are not
   * changes of the session. Conflict answers the row as it stands.
   */
  claimLease(
    id: string,
    claim: LeaseClaim,
    options?: { expectStatus?: readonly SessionStatus[] },
  ): Promise<SessionUpdateResult>;
  /**
   * Extends this node's lease to `claim.now + ttlMs` (and refreshes nodeUrl) if the row's nodeId is still
   * `claim.nodeId`; conflict when another node took it or it was released, and then the caller must stop its engine
   * without writing the row. claimedAt and updatedAt stay.
   */
  renewLease(id: string, claim: LeaseClaim): Promise<SessionUpdateResult>;
  /** Clears the four lease fields if `nodeId` holds the lease; conflict otherwise (nothing written). */
  releaseLease(id: string, nodeId: string): Promise<SessionUpdateResult>;
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

/** When a lease taken or renewed with `claim` runs out (ISO text, so stores compare it in time order). */
export function leaseEnd(claim: LeaseClaim): string {
  return new Date(claim.now.getTime() + claim.ttlMs).toISOString();
}

/**
 * True when some node holds a lease that has not run out at `instant`. A nodeId without an expiry is a lease that
 * never lapses, as SQL reads `NULL <= now`; only a claim writes leases, and it always sets one.
 */
export function leaseLiveAt(session: Session, instant: Date): boolean {
  if (session.nodeId === null) return false;
  return session.leaseExpiresAt === null || session.leaseExpiresAt > instant.toISOString();
}

/** The node URL of the session's live lease at `now` (the stores' rule), or null when no host owns it. */
export function liveOwnerUrl(session: Session, now: Date): string | null {
  return session.nodeUrl && leaseLiveAt(session, now) ? session.nodeUrl : null;
}

/** Every condition given in `options` holds for a row as read (they combine with AND): the port's rule in one place. */
export function updateConditionsHold(session: Session, options: SessionUpdateOptions): boolean {
  if (options.expectStatus !== undefined && !options.expectStatus.includes(session.status)) return false;
  if (options.expectOwner !== undefined && session.nodeId !== options.expectOwner) return false;
  if (options.expectUnownedAt !== undefined && leaseLiveAt(session, options.expectUnownedAt)) return false;
  if (options.expectConfig !== undefined && !isDeepStrictEqual(session.config, options.expectConfig))
    return false;
  return true;
}
