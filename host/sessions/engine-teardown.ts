/**
 * Ending a device's connection. Logout of a linked device: the engine unlinks it on the network within the teardown deadline, then the
 * credentials are wiped. If the network refuses, the session is torn down locally and 502 is thrown; if it does
 * not answer in time, a fence on the session's name holds off start and delete (409) until the late teardown
 * settles and wipes the credentials.
 */

import type { EngineFactory, EngineSession, MessagingEngine } from '#host/engines/engine.port.js';
import type { Session } from '#shared/domain/session.js';
import { IncompleteOperationError } from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { TeardownFenceStore } from '#shared/ports/session-store.port.js';
import type { SessionStatusWriter } from './status-writer.js';
import { withTimeout } from './with-timeout.js';

/** How long a fence outlives a teardown that never settles (e.g. the host died mid-teardown). */
const FENCE_TTL_MULTIPLIER = 30;

export interface UnlinkContext {
  session: EngineSession;
  writer: SessionStatusWriter;
  engines: EngineFactory;
  fences: TeardownFenceStore;
  clock: Clock;
  logger: Logger;
  teardownTimeoutMs: number;
}

/** Kills the engine at once; 502 SESSION_FORCE_KILL_INCOMPLETE when even that fails (the caller may retry). */
export async function destroyOrThrow(engine: MessagingEngine): Promise<void> {
  await engine.forceDestroy().catch((error: unknown) => {
    throw new IncompleteOperationError(
      'SESSION_FORCE_KILL_INCOMPLETE',
      'The engine could not be killed; retry',
      {
        cause: error,
      },
    );
  });
}

export async function unlinkDevice(context: UnlinkContext, engine: MessagingEngine): Promise<Session | null> {
  const { session, writer, engines, logger } = context;
  const attempt = engine.logout().then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const outcome = await withTimeout(attempt, context.teardownTimeoutMs);
  if (outcome.done && outcome.value.ok) {
    await engines.wipeCredentials(session.id);
    return writer.apply('logout', { phone: null, lastError: null });
  }
  await engine.forceDestroy().catch((error: unknown) => logger.warn({ err: error }, 'forceDestroy failed'));
  if (outcome.done) await engines.wipeCredentials(session.id);
  else await fenceUntilSettled(context, attempt);
  await writer.apply('logout', { phone: null, lastError: 'logout not confirmed by the network' });
  const detail = outcome.done ? 'the network refused it' : 'timed out';
  throw new IncompleteOperationError(
    'SESSION_LOGOUT_INCOMPLETE',
    `Logout of session '${session.name}' did not complete (${detail}); the session was stopped locally. Start it again and retry.`,
  );
}

/**
 * Stops an engine (credentials kept) within the deadline; a stop that hangs or fails escalates to forceDestroy,
 * and if that fails too the stop is incomplete (502, retryable).
 */
export async function stopWithin(engine: MessagingEngine, deadlineMs: number): Promise<void> {
  const stopped = await withTimeout(engine.stop(), deadlineMs).catch(() => ({ done: false as const }));
  if (stopped.done) return;
  await engine.forceDestroy().catch((error: unknown) => {
    throw new IncompleteOperationError('SESSION_STOP_INCOMPLETE', 'The engine did not stop; retry', {
      cause: error,
    });
  });
}

async function fenceUntilSettled(context: UnlinkContext, teardown: Promise<unknown>): Promise<void> {
  const { fences, clock, engines, logger, session } = context;
  await fences.put(
    session.name,
    new Date(clock.now().getTime() + context.teardownTimeoutMs * FENCE_TTL_MULTIPLIER),
  );
  void teardown.then(async () => {
    try {
      await engines.wipeCredentials(session.id);
      await fences.clear(session.name);
    } catch (error) {
      logger.error({ err: error, sessionName: session.name }, 'late teardown could not settle');
    }
  });
}
