/**
 * The session states an engine operation runs in, and what it answers when no engine of the session is running:
 * one policy, used by the use case (before the host is asked), the host (its runner may have stopped meanwhile) and
 * the lease-routed gateway (no host owns the session).
 */
import { type EngineOperationRow, statesOf } from '#shared/domain/engine-operations/engine-operation.js';
import type { Session } from '#shared/domain/session.js';
import { SessionStateError } from '#shared/errors/app-error.js';

/** 400 SESSION_NOT_READY unless `session` is in one of the states `row` runs in (ready, unless it names others). */
export function assertOperationState(row: Pick<EngineOperationRow, 'states'>, session: Session): void {
  const states = statesOf(row);
  if (states.includes(session.status)) return;
  throw new SessionStateError(
    'SESSION_NOT_READY',
    `Session is not ready (status ${session.status}); this needs it ${states.join(' or ')}`,
  );
}

/**
 * What `row` answers for a session whose engine is not running (stopped, no owner, or its runner not ready): the
 * row's own answer when it has one, else 400 SESSION_NOT_READY with the status the row shows.
 */
export async function answerNotRunning(row: EngineOperationRow, session: Session): Promise<unknown> {
  if (row.whenNotRunning) return row.whenNotRunning(session);
  return notRunning(session);
}

/** 400 SESSION_NOT_READY for an operation that needs the session's engine, which is not running. */
export function notRunning(session: Session): never {
  throw new SessionStateError(
    'SESSION_NOT_READY',
    `Session is not ready (status ${session.status}; its engine is not running)`,
  );
}
