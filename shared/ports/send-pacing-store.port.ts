/**
 * What send pacing keeps per session, shared by every function instance and host: the sends accepted on the current
 * UTC day (all of them, and those to chats without history), the streak of consecutive failed sends, and until when
 * the breaker is open. Every change is atomic in the store, so concurrent sends of one session can never both take
 * the last unit of an allowance.
 */

/** One send asking to be counted (shared/use-cases/messages/send-pacing.ts decides the caps). */
export interface PacingAdmissionRequest {
  /** The UTC day of the send, `YYYY-MM-DD`: counts of another day are stale and start again at this send. */
  day: string;
  /** Sends the session may have accepted on `day`, this one included (at least 1). */
  dailyCap: number;
  /** The send opens a chat without history: it also counts against `coldCap`. */
  cold: boolean;
  /** Sends to chats without history allowed on `day` (at least 1); null: not capped, and not counted. */
  coldCap: number | null;
  /** Epoch ms; an open breaker refuses while `openUntil` is later. */
  now: number;
}

export type PacingAdmission =
  | { admitted: true }
  | { admitted: false; rule: 'breaker_open'; openUntil: number }
  /** `count`: the sends (or cold sends) already accepted on the day. */
  | { admitted: false; rule: 'daily_cap' | 'cold_daily_cap'; count: number };

/** A send that failed for a reason that counts toward the breaker. */
export interface PacingFailure {
  /** Failures in a row that open the breaker. */
  threshold: number;
  cooldownMs: number;
  /** Epoch ms. */
  now: number;
}

export interface PacingFailureOutcome {
  /** The streak including this failure. */
  consecutiveFailures: number;
  /** This failure opened the breaker (true for exactly one of concurrent failures that reach the threshold). */
  tripped: boolean;
}

/** A session's stored pacing state (the data export's row). */
export interface SendPacingRecord {
  sessionId: string;
  /** The UTC day `sent` and `cold` count, or null before the first send. */
  day: string | null;
  sent: number;
  cold: number;
  /** The streak of consecutive failed sends. */
  failures: number;
  /** Epoch ms the breaker is open until, or null while closed. */
  openUntil: number | null;
}

/**
 * Per-session pacing state. Deleting a session deletes it (SQLite by cascade, the others through deleteBySession).
 * DynamoDB items carry a TTL a week past their last relevance; reads compare the stored day and `openUntil` and
 * never rely on TTL having run.
 */
export interface SendPacingStore {
  /**
   * Counts one send atomically unless it must be refused: the breaker is open (`openUntil` later than `now`), or
   * the day's sends reached `dailyCap`, or the send is cold and the day's cold sends reached `coldCap` (checked in
   * that order). A refused send changes nothing. Counts of an earlier day are replaced by this send's.
   */
  admit(sessionId: string, request: PacingAdmissionRequest): Promise<PacingAdmission>;
  /**
   * Adds a failure to the session's streak. Reaching `threshold` while the breaker is closed opens it until
   * `now + cooldownMs`; failures while it is open extend nothing. Once the cooldown has passed, the next failure
   * starts a new streak at 1 (and closes the breaker first).
   */
  recordFailure(sessionId: string, failure: PacingFailure): Promise<PacingFailureOutcome>;
  /** A send succeeded: the streak ends and an open breaker closes. */
  recordSuccess(sessionId: string): Promise<void>;
  /** The session's state as stored, or null when it has none (the data export). */
  find(sessionId: string): Promise<SendPacingRecord | null>;
  /** Writes a record back exactly as `find` read it, replacing the session's state (the data import). */
  restore(record: SendPacingRecord): Promise<void>;
  /** Deletes a session's pacing state (session delete); answers how many records it removed. */
  deleteBySession(sessionId: string): Promise<number>;
}
