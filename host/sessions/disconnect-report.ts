/**
 * How a lost or failed connection is reported: always a warn log line with the session id, and when asked a
 * `session_disconnected` audit entry (severity warn) with the same facts in its metadata.
 */

import type { EngineSession } from '#host/engines/engine.port.js';
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Logger } from '#shared/ports/logger.port.js';

export interface DisconnectReport {
  /** The engine's reason (free of secrets). */
  reason: string;
  /** The consecutive failed connection this was; absent for an unlink by the network. */
  attempt?: number;
  /** When the next attempt is due; null when none will be made. */
  nextDelayMs: number | null;
  audit: boolean;
}

export function reportDisconnect(
  deps: { logger: Logger; audit: AuditRecorder },
  session: Pick<EngineSession, 'id' | 'name'>,
  report: DisconnectReport,
): void {
  const facts = {
    reason: report.reason,
    ...(report.attempt === undefined ? {} : { attempt: report.attempt }),
    nextDelayMs: report.nextDelayMs,
  };
  deps.logger.warn(
    { sessionId: session.id, ...facts },
    report.nextDelayMs === null
      ? 'session disconnected; not reconnecting'
      : 'session disconnected; reconnecting',
  );
  if (!report.audit) return;
  void deps.audit.record(SYSTEM_CALLER, {
    action: 'session_disconnected',
    severity: 'warn',
    sessionId: session.id,
    sessionName: session.name,
    metadata: facts,
  });
}
