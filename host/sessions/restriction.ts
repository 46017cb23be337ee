/**
 * Account restrictions reported by the network. An active one moves a ready session to `action_required` (sends are
 * refused there; stop and logout still work) with the reason in lastError; lifting it returns the session to
 * `ready`. Each change publishes `session.restriction` and is audited. A notice that arrives before the session is
 * ready is kept and applied once it is.
 */

import type { EngineSession } from '#host/engines/engine.port.js';
import type { RestrictionNotice } from '#host/engines/engine-events.js';
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Session } from '#shared/domain/session.js';
import type { SessionStatusWriter } from './status-writer.js';

export function restrictionReason(notice: RestrictionNotice): string {
  const until = notice.expiresAt ? ` until ${notice.expiresAt}` : '';
  return `Account restricted by WhatsApp (${notice.kind}${notice.code ? `: ${notice.code}` : ''})${until}`;
}

export interface RestrictionContext {
  session: EngineSession;
  writer: SessionStatusWriter;
  audit: AuditRecorder;
}

/** Applies a notice (or re-applies a remembered one after `ready`). Answers the row as it stands afterwards. */
export async function applyRestriction(
  context: RestrictionContext,
  notice: RestrictionNotice,
): Promise<Session | null> {
  const { session, writer, audit } = context;
  const event = { event: 'session.restriction', data: { sessionId: session.id, ...notice } } as const;
  const row = notice.active
    ? await writer.apply('action_required', { lastError: restrictionReason(notice) }, [event])
    : await writer.apply('action_resolved', { lastError: null }, [event]);
  void audit.record(SYSTEM_CALLER, {
    action: notice.active ? 'session_restricted' : 'session_restriction_lifted',
    severity: notice.active ? 'warn' : 'info',
    sessionId: session.id,
    sessionName: session.name,
    metadata: { kind: notice.kind, code: notice.code, expiresAt: notice.expiresAt },
  });
  return row;
}
