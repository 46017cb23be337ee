import type { HostRpcOp, HostRpcRequestOf, HostRpcResultOf } from '#shared/domain/host-rpc.js';

/**
 * Calls a host's RPC API at its advertised nodeUrl. Resolves with the op's parsed result; rejects with the AppError
 * the host raised (same status and code), or with a retryable UnavailableError HOST_UNAVAILABLE when the host gave
 * no usable answer (refused, timed out, not a host) — the caller decides what an unreachable owner means.
 */
export interface HostRpcClient {
  call<Op extends HostRpcOp>(nodeUrl: string, request: HostRpcRequestOf<Op>): Promise<HostRpcResultOf<Op>>;
}
