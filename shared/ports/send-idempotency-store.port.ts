/** How long a send's idempotency key holds (openwa-facts §1.2: kept 24 hours). */
export const SEND_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Keys claimed at or before this instant have expired at `now` (ISO text, so stores compare it in time order). */
export function idempotencyExpiredBy(now: Date): string {
  return new Date(now.getTime() - SEND_IDEMPOTENCY_TTL_MS).toISOString();
}

/** What a key remembers of the send request that claimed it. */
export interface SendIdempotencyRecord {
  /** Hash of what the request asked to send; a retry must carry the same. */
  requestHash: string;
  /** The id of the message that request stores (pre-generated before the claim). */
  messageId: string;
  /** When it was claimed (ISO). */
  createdAt: string;
}

/** A key as the send request that claims it names it. */
export interface NewSendKey {
  sessionId: string;
  key: string;
  requestHash: string;
  messageId: string;
}

/** A stored key with its session and claim instant (the data export's row); it expires TTL after `createdAt`. */
export interface StoredSendKey extends NewSendKey {
  createdAt: string;
}

export type SendIdempotencyClaim = { claimed: true } | { claimed: false; existing: SendIdempotencyRecord };

/**
 * The `Idempotency-Key`s of single sends, unique per session: a claimed key names the message its first request
 * sends, so a retry answers that message instead of sending another. A key holds for SEND_IDEMPOTENCY_TTL_MS from its
 * claim; expired keys are treated as absent and removed by the store in passing (SQLite, memory) or by expiry
 * (DynamoDB TTL). Deleting a session deletes its keys (SQLite by cascade, the others through deleteBySession).
 */
export interface SendIdempotencyStore {
  /**
   * Atomically records the key for its session at `now`, naming its message and request hash, unless a live
   * (unexpired) claim of it stands: then nothing is written and the standing record is answered. Of concurrent
   * claims of one key exactly one wins. A session the store knows to be missing raises NotFoundError (SQLite).
   */
  claim(entry: NewSendKey, now: Date): Promise<SendIdempotencyClaim>;
  /**
   * The session's keys still live at `now`, a page at a time in key order: those after `afterKey` (null: from the
   * first), at most `limit`. A key read so is restored exactly by claiming it at its `createdAt` (the data import).
   */
  listBySession(
    sessionId: string,
    page: { now: Date; afterKey: string | null; limit: number },
  ): Promise<StoredSendKey[]>;
  /**
   * Removes the key only while it still names `messageId` (its claimant gives it up, or a retry clears a claimant
   * that died before storing its message); true when it did. A key claimed again since is left as it is.
   */
  release(sessionId: string, key: string, messageId: string): Promise<boolean>;
  /** Deletes every key of a session (session delete); answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
}
