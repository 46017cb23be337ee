/**
 * The calls port (capability `reject_calls`): acting on the calls the engine reports as `callOffered` events (and,
 * once their ringing ends, `callEnded`). The session runner applies the session's `autoRejectCalls` through
 * `rejectCall`, so every engine with the port honours it; the API's reject is the row's `reject`, which also reports
 * the call's end.
 */
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';

export interface EngineCalls extends PortOperations<'calls'> {
  /** Declines a ringing call the engine reported (its `callId`). */
  rejectCall(callId: string): Promise<void>;
}
