/**
 * The host's one handler of every engine operation row (shared/domain/engine-operations/): it finds the session's
 * runner, checks that its engine can answer now, and calls the row's method on the engine's port with the input the
 * RPC (or the embedded call) validated against the row, or with what the row's `toEngine` makes of it here.
 */
import type { OptionalPorts } from '#host/engines/engine.port.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import type { EngineKind } from '#shared/domain/engine-capabilities.js';
import { capabilityRow } from '#shared/domain/engine-capabilities.js';
import { type OperationFiles, portOf, statesOf } from '#shared/domain/engine-operations/engine-operation.js';
import {
  ENGINE_OPERATION_ROWS,
  type EngineOperationName,
} from '#shared/domain/engine-operations/engine-operations.js';
import type { HostOperationHandlers } from '#shared/domain/host-operations.js';
import {
  AppError,
  EngineUnsupportedError,
  NotFoundError,
  UnavailableError,
} from '#shared/errors/app-error.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import { answerNotRunning, assertOperationState } from '#shared/use-cases/engine/engine-operation-state.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';
import { type DraftFiles, readMediaFile } from '#shared/use-cases/messages/draft-media.js';

export interface EngineOperationContext {
  kind: EngineKind;
  sessions: Pick<SessionStore, 'findById'>;
  runnerOf(sessionId: string): SessionRunner | undefined;
  /** Where a row's `toEngine` reads a file (the media sends' fetcher and size cap); absent, such a row is 503. */
  files?: DraftFiles | undefined;
}

/** The files a row's `toEngine` reads: as a media send's, or refused by a host without them (some tests' hosts). */
function operationFiles(files: DraftFiles | undefined): OperationFiles {
  return {
    read: (kind, source, mimetype) =>
      files
        ? readMediaFile(files, kind, source, mimetype)
        : Promise.reject(new UnavailableError('ENGINE_UNAVAILABLE', 'This host reads no files')),
  };
}

type EngineOperationHandlers = Pick<HostOperationHandlers, EngineOperationName>;
type AnyPort = Record<string, ((input: unknown) => Promise<unknown>) | undefined>;

export function engineOperations({
  kind,
  sessions,
  runnerOf,
  files,
}: EngineOperationContext): EngineOperationHandlers {
  const reader = operationFiles(files);
  const handlers = ENGINE_OPERATION_ROWS.map((row) => {
    const onlyWhenReady = statesOf(row).every((state) => state === 'ready');
    // Every row's port is an operation port, one of OptionalPorts (engine.port.ts).
    const portName = portOf(row) as keyof OptionalPorts;
    const handler = async ({ sessionId, ...input }: { sessionId: string }) => {
      // The use case refused already; checked again for callers that reach the host directly (RPC).
      requireCapability(kind, row.capability);
      const runner = runnerOf(sessionId);
      if (!runner?.hasLiveEngine || (onlyWhenReady && !runner.isReady)) {
        const session = await sessions.findById(sessionId);
        if (!session) throw new NotFoundError(`Session '${sessionId}' not found`);
        if (!runner?.hasLiveEngine) return answerNotRunning(row, session);
        assertOperationState(row, session);
      }
      const port = runner.port(portName) as AnyPort | null;
      const method = port?.[row.method];
      if (!port || !method) {
        throw new EngineUnsupportedError(kind, row.capability, capabilityRow(row.capability).summary);
      }
      const engineInput = row.toEngine ? await row.toEngine(input, reader) : input;
      return method.call(port, engineInput).catch(engineFailure);
    };
    return [row.name, handler] as const;
  });
  return Object.fromEntries(handlers) as unknown as EngineOperationHandlers;
}

/**
 * An engine's failure as the operation's answer: its own AppErrors as they are; anything else means the engine could
 * not get the network's answer (a dropped socket, a timeout, a refused query), which the client may retry. The cause
 * stays in the log, not in the answer.
 */
export function engineFailure(error: unknown): never {
  if (error instanceof AppError) throw error;
  throw new UnavailableError('ENGINE_UNAVAILABLE', 'The engine could not answer; retry shortly', {
    cause: error,
  });
}
