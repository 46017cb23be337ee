import type { Page } from '#shared/domain/common.js';
import type { StatusRecord } from '#shared/domain/status-update.js';
import type { OutboxEntry } from './event-outbox.port.js';

/** What to read: one session's statuses still shown at `now` (epoch ms), optionally one poster's alone. */
export interface StatusQuery {
  sessionId: string;
  now: number;
  /** The poster's id, or any of its ids (a phone number and its LID). */
  contactId?: readonly string[];
}

/**
 * The status updates of each session (shared/domain/status-update.ts): contacts' posts and the account's own, each
 * shown until its `expiresAt`. Reads never answer an expired status, whether or not `deleteExpired` has removed it
 * yet. Written by the host that runs the session, read by the status routes.
 */
export interface StatusStore {
  /**
   * Stores a status; a second insert of the same (sessionId, statusId) is ignored and answers false (the network may
   * deliver a post twice). With `outbox`, its entry is stored in the same transaction as the row, and not at all for
   * a duplicate. An unknown session raises NotFoundError where the store knows sessions (SQLite, DynamoDB).
   */
  insert(status: StatusRecord, outbox?: (status: StatusRecord) => OutboxEntry): Promise<boolean>;
  /** A status still shown at `now`; null when unknown or expired. */
  find(sessionId: string, statusId: string, now: number): Promise<StatusRecord | null>;
  /** Newest first (postedAt descending, then statusId), a page of them. */
  list(query: StatusQuery, page: Page): Promise<StatusRecord[]>;
  /** Removes a status (deleted by its poster); answers the removed row, null when there was none. */
  delete(sessionId: string, statusId: string): Promise<StatusRecord | null>;
  /** Removes every status that expired by `now` (epoch ms), at most `limit`; answers them (their files go next). */
  deleteExpired(now: number, limit: number): Promise<StatusRecord[]>;
  /** Removes every status of a session (session delete); answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
}
