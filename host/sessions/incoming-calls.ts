/**
 * What a session does with a call ringing on its account: with the session config `autoRejectCalls` it is declined
 * at once, on every engine with the calls port (capability `reject_calls`). An engine without the port reports no
 * calls, so the setting has no effect there.
 */
import type { EngineSession, MessagingEngine } from '#host/engines/engine.port.js';
import type { IncomingCall } from '#host/engines/engine-events.js';
import type { Logger } from '#shared/ports/logger.port.js';

export function answerIncomingCall(
  engine: MessagingEngine | null,
  session: EngineSession,
  call: IncomingCall,
  logger: Logger,
): void {
  if (session.config.autoRejectCalls !== true) return;
  engine?.calls?.rejectCall(call.callId).catch((error: unknown) => {
    logger.warn({ err: error, sessionId: session.id, callId: call.callId }, 'could not reject a call');
  });
}
