/**
 * What a session does with a call ringing on its account: it is published as `call.received` (the caller by both
 * ids, shared/domain/person-ids.ts), and with the session
 * config `autoRejectCalls` declined at once, on every engine with the calls port (capability `reject_calls`), and
 * published as `call.rejected`. An engine without the port reports no calls, so the setting has no effect there.
 */
import type { EngineSession, MessagingEngine } from '#host/engines/engine.port.js';
import type { EngineEventData, IncomingCall } from '#host/engines/engine-events.js';
import type { GatewayEventMap } from '#shared/domain/events.js';
import type { PersonLookup } from '#shared/domain/person-ids.js';
import type { Logger } from '#shared/ports/logger.port.js';

export async function answerIncomingCall(
  engine: MessagingEngine | null,
  session: EngineSession,
  call: IncomingCall,
  deps: { logger: Logger; publish: CallPublisher; people: (ids: string[]) => Promise<PersonLookup> },
): Promise<void> {
  const people = await deps.people([call.from]);
  const data = {
    callId: call.callId,
    from: call.from,
    caller: people(call.from),
    isVideo: call.video,
    isGroup: call.isGroup,
    timestamp: call.timestamp,
  };
  await deps.publish('call.received', data);
  if (session.config.autoRejectCalls !== true || !engine?.calls) return;
  try {
    await engine.calls.rejectCall(call.callId);
  } catch (error) {
    deps.logger.warn({ err: error, sessionId: session.id, callId: call.callId }, 'could not reject a call');
    return;
  }
  await deps.publish('call.rejected', { ...data, sessionId: session.id, outcome: 'rejected' });
}

/** A ringing call ended (answered elsewhere, declined, not answered): `call.accepted`, `.rejected` or `.missed`. */
export async function publishCallEnd(
  sessionId: string,
  ended: EngineEventData<'callEnded'>,
  deps: { publish: CallPublisher; people: (ids: string[]) => Promise<PersonLookup> },
): Promise<void> {
  const people = await deps.people([ended.from]);
  const data = {
    sessionId,
    callId: ended.callId,
    from: ended.from,
    caller: people(ended.from),
    isVideo: ended.video,
    isGroup: ended.isGroup,
    timestamp: ended.timestamp,
  };
  if (ended.outcome === 'accepted') await deps.publish('call.accepted', { ...data, outcome: 'accepted' });
  else if (ended.outcome === 'missed') await deps.publish('call.missed', { ...data, outcome: 'missed' });
  else await deps.publish('call.rejected', { ...data, outcome: 'rejected' });
}

/** Publishes a call event of the session. */
export type CallPublisher = <K extends 'call.received' | 'call.accepted' | 'call.rejected' | 'call.missed'>(
  event: K,
  data: GatewayEventMap[K],
) => Promise<void>;
