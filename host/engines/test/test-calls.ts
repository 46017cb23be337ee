/**
 * The test engine's calls port: declining a call the test network rings (`placeCall`), by the session's
 * `autoRejectCalls` (`rejectCall`) or the API (`reject`, which also tells the call's end as a real engine does).
 */
import { NotFoundError } from '#shared/errors/app-error.js';
import type { EngineEmitter } from '../engine-events.js';
import type { EngineCalls } from '../ports/calls.port.js';
import type { TestNetwork } from './test-network.js';

export function testCalls(
  network: TestNetwork,
  sessionId: string,
  emit: EngineEmitter['emit'],
  open: () => boolean,
): EngineCalls {
  const rejectCall = async (callId: string) => {
    if (!open()) throw new Error('connection closed');
    network.recordRejected(sessionId, callId);
  };
  return {
    rejectCall,
    reject: async ({ callId }) => {
      const call = network.calls.get(callId);
      if (call?.sessionId !== sessionId || call.status !== 'ringing') {
        throw new NotFoundError(`Call ${callId} is not ringing`);
      }
      await rejectCall(callId);
      emit('callEnded', { ...network.offerOf(callId), outcome: 'rejected' });
      return { success: true as const };
    },
  };
}
