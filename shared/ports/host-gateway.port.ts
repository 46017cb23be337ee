import type {
  HostOperation,
  HostOperationInput,
  HostOperationResult,
} from '#shared/domain/host-operations.js';

export interface HostStats {
  /** Engines running on this node. */
  activeEngines: number;
}

/**
 * Owner-directed operations (shared/domain/host-operations.ts): calls that need the host running the session's
 * engine and an answer now. In the embedded mode this is a direct call; in aws mode an authenticated HTTP call to
 * the owner's nodeUrl.
 */
export interface HostGateway {
  /** Runs `operation` on the host that owns `input.sessionId` (or answers what its row implies when none does). */
  call<Op extends HostOperation>(
    operation: Op,
    input: HostOperationInput<Op>,
  ): Promise<HostOperationResult<Op>>;
  /** Engines running; with `sessionIds`, only those of these sessions (a scoped caller's view). */
  stats(sessionIds?: readonly string[]): Promise<HostStats>;
}
