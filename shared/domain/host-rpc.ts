/**
 * The host RPC wire (aws mode, DESIGN §1): one POST per owner-directed operation to the owner's `/rpc`, the body
 * `{operation, input}`, the answer `{result}` or `{error}`. Both ends parse what crosses the wire: the envelope
 * here, the input and the result with the operation's schemas (host-operations.ts).
 */
import { z } from 'zod';
import { HOST_OPERATION_NAMES, type HostOperation } from './host-operations.js';

export const HostRpcRequest = z.strictObject({
  operation: z.enum(HOST_OPERATION_NAMES as [HostOperation, ...HostOperation[]]),
  input: z.unknown(),
});

/** The error half of an answer: an AppError serialised by the host (see serializeAppError). */
export const HostRpcError = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.unknown().optional(),
});

/** Path of the RPC endpoint on a host's nodeUrl. */
export const HOST_RPC_PATH = '/rpc';
/** Path of the host's unauthenticated liveness probe (container health checks). */
export const HOST_HEALTH_PATH = '/healthz';
