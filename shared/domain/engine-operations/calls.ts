/**
 * The call operations (openwa-facts §1.13): declining a call ringing on the account. Calls themselves arrive as
 * events (`call.received`, and `call.accepted`, `call.rejected` or `call.missed` when the ringing ends).
 */
import { z } from 'zod';
import { defineEngineOperation } from './engine-operation.js';

/** `POST …/calls/{callId}/reject`: declines a ringing call (404 when no such call rings now). */
export const rejectCall = defineEngineOperation({
  name: 'calls.reject',
  capability: 'reject_calls',
  method: 'reject',
  input: z.strictObject({
    callId: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be a call id from call.received'),
  }),
  result: z.object({ success: z.literal(true) }).meta({ id: 'CallRejected' }),
  role: 'operator',
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/calls/{callId}/reject',
    summary: 'Reject a ringing call',
    tag: 'Calls',
    success: 200,
  },
  example: { input: { callId: 'TESTCALL000001' }, result: { success: true } },
});
