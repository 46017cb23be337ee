/**
 * The SendPacingStore rules over one session's state, for the adapters that change it inside a transaction of their
 * own (memory, SQLite): each rule takes the state as read and answers the outcome and the state to write, and
 * StatePacingStore runs them through the adapter's one atomic read-and-write. DynamoDB expresses the same rules as
 * conditional updates (dynamodb-send-pacing-store.ts).
 */
import type {
  PacingAdmission,
  PacingAdmissionRequest,
  PacingFailure,
  PacingFailureOutcome,
  SendPacingRecord,
  SendPacingStore,
} from '#shared/ports/send-pacing-store.port.js';

/** One session's pacing state. */
export type PacingState = Omit<SendPacingRecord, 'sessionId'>;

export const NO_PACING_STATE: PacingState = { day: null, sent: 0, cold: 0, failures: 0, openUntil: null };

/** What a rule answers: the outcome, and the state to store (null: nothing changes). */
export interface PacingChange<T> {
  result: T;
  next: PacingState | null;
}

/** SendPacingStore.admit over `state`. */
function admitTo(state: PacingState, request: PacingAdmissionRequest): PacingChange<PacingAdmission> {
  if (state.openUntil !== null && state.openUntil > request.now) {
    return { result: { admitted: false, rule: 'breaker_open', openUntil: state.openUntil }, next: null };
  }
  const today = state.day === request.day;
  const sent = today ? state.sent : 0;
  const cold = today ? state.cold : 0;
  if (sent >= request.dailyCap)
    return { result: { admitted: false, rule: 'daily_cap', count: sent }, next: null };
  const countsCold = request.cold && request.coldCap !== null;
  if (countsCold && cold >= (request.coldCap ?? 0)) {
    return { result: { admitted: false, rule: 'cold_daily_cap', count: cold }, next: null };
  }
  return {
    result: { admitted: true },
    next: { ...state, day: request.day, sent: sent + 1, cold: countsCold ? cold + 1 : cold },
  };
}

/** SendPacingStore.recordFailure over `state`. */
function failTo(state: PacingState, failure: PacingFailure): PacingChange<PacingFailureOutcome> {
  // A served cooldown closes the breaker: this failure starts a new streak.
  const served = state.openUntil !== null && state.openUntil <= failure.now;
  const failures = served ? 1 : state.failures + 1;
  const openUntil = served ? null : state.openUntil;
  const tripped = openUntil === null && failures >= failure.threshold;
  return {
    result: { consecutiveFailures: failures, tripped },
    next: { ...state, failures, openUntil: tripped ? failure.now + failure.cooldownMs : openUntil },
  };
}

/** SendPacingStore.recordSuccess over `state`: writes only when there is a streak or an open breaker to end. */
function succeedTo(state: PacingState): PacingChange<void> {
  const clean = state.failures === 0 && state.openUntil === null;
  return { result: undefined, next: clean ? null : { ...state, failures: 0, openUntil: null } };
}

/** A SendPacingStore whose adapter supplies one atomic read-and-write of a session's state. */
export abstract class StatePacingStore implements SendPacingStore {
  /** Reads the session's state (NO_PACING_STATE when none), applies `rule` and stores its `next`, atomically. */
  protected abstract change<T>(sessionId: string, rule: (state: PacingState) => PacingChange<T>): Promise<T>;

  abstract deleteBySession(sessionId: string): Promise<number>;

  abstract find(sessionId: string): Promise<SendPacingRecord | null>;

  async restore({ sessionId, ...state }: SendPacingRecord): Promise<void> {
    await this.change(sessionId, () => ({ result: undefined, next: state }));
  }

  admit(sessionId: string, request: PacingAdmissionRequest): Promise<PacingAdmission> {
    return this.change(sessionId, (state) => admitTo(state, request));
  }

  recordFailure(sessionId: string, failure: PacingFailure): Promise<PacingFailureOutcome> {
    return this.change(sessionId, (state) => failTo(state, failure));
  }

  recordSuccess(sessionId: string): Promise<void> {
    return this.change(sessionId, succeedTo);
  }
}
