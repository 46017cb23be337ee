import type {
  HostOperation,
  HostOperationInput,
  HostOperationResult,
} from '#shared/domain/host-operations.js';

/**
 * Calls a host's RPC API at its advertised nodeUrl. Resolves with the operation's parsed result; rejects with the
 * AppError the host raised (same status and code), or with a retryable UnavailableError HOST_UNAVAILABLE when the
 * host gave no usable answer (refused, timed out, not a host) — the caller decides what an unreachable owner means.
 */
export interface HostRpcClient {
  call<Op extends HostOperation>(
    nodeUrl: string,
    operation: Op,
    input: HostOperationInput<Op>,
    options?: HostRpcCallOptions,
  ): Promise<HostOperationResult<Op>>;
}

export interface HostRpcCallOptions {
  /** This call's deadline instead of the client's (an operation that waits, such as message.awaitOutcome). */
  timeoutMs?: number;
}
