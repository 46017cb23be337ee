/**
 * The host RPC wire (aws mode, DESIGN §1): one POST per owner-directed operation to the owner's `/rpc`, the body
 * `{operation, input}`, the answer `{result}` or `{error}`. Both ends parse what crosses the wire: the envelope
 * here, the input and the result with the operation's schemas (host-operations.ts).
 */
import { z } from 'zod';
import { ValidationError } from '#shared/errors/app-error.js';
import {
  HOST_OPERATION_NAMES,
  HOST_OPERATIONS,
  type HostOperation,
  type HostOperationInput,
} from './host-operations.js';

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

/**
 * An operation's input as a host receives it (over HTTP from another process, or over the API thread's port),
 * parsed with the operation's schema; 400 naming the operation when it does not fit.
 */
export function parseOperationInput<Op extends HostOperation>(
  operation: Op,
  input: unknown,
): HostOperationInput<Op> {
  const parsed = HOST_OPERATIONS[operation].input.safeParse(input);
  if (!parsed.success) {
    throw new ValidationError(`Invalid input of ${operation}`, { details: parsed.error.issues });
  }
  return parsed.data as HostOperationInput<Op>;
}
