/**
 * The calls port (capability `reject_calls`): acting on the calls the engine reports as `callOffered` events. The
 * session runner applies the session's `autoRejectCalls` through it, so every engine with the port honours it.
 */
export interface EngineCalls {
  /** Declines a ringing call the engine reported (its `callId`). */
  rejectCall(callId: string): Promise<void>;
}
