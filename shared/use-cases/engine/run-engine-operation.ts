import type { Caller } from '#shared/domain/caller.js';
import {
  ENGINE_OPERATIONS,
  type EngineOperationInput,
  type EngineOperationName,
  type EngineOperationResult,
} from '#shared/domain/engine-operations/engine-operations.js';
import type { HostOperationInput } from '#shared/domain/host-operations.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { chatListedResult } from './chat-listed-result.js';
import { assertOperationState } from './engine-operation-state.js';
import { requireCapability } from './require-capability.js';

/**
 * Runs an engine operation (shared/domain/engine-operations/) for a caller: 501 ENGINE_UNSUPPORTED when the
 * deployment's engine lacks the row's capability (before the session is read: it is the engine that lacks it),
 * 403 outside the caller's scope, 404 unknown session, 400 SESSION_NOT_READY outside the row's states; then the
 * host that runs the session's engine answers (a list of chats filtered to a caller limited to chats). The caller's role was checked by the transport from the row.
 */
export async function runEngineOperation<N extends EngineOperationName>(
  deps: Pick<CoreDeps, 'data' | 'host' | 'engine'>,
  caller: Caller,
  name: N,
  sessionId: string,
  input: EngineOperationInput<N>,
): Promise<EngineOperationResult<N>> {
  const row = ENGINE_OPERATIONS[name];
  requireCapability(deps.engine, row.capability);
  assertOperationState(row, await loadSession(deps.data.sessions, caller, sessionId));
  // The host operation of the same name carries the row's input with the session (host-operations.ts).
  const call = (rowInput: unknown) =>
    deps.host.call(name, { ...(rowInput as object), sessionId } as HostOperationInput<N>);
  return (await chatListedResult(row, caller, input, call)) as EngineOperationResult<N>;
}
