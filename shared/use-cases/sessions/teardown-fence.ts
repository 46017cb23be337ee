import { ConflictError } from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { TeardownFenceStore } from '#shared/ports/session-store.port.js';

/** Refuses (409, retryable) while a credential teardown for this session name is still in flight. */
export async function assertNoTeardownPending(
  fences: TeardownFenceStore,
  clock: Clock,
  name: string,
): Promise<void> {
  if (await fences.isActive(name, clock.now())) {
    throw new ConflictError(
      'SESSION_NAME_TEARDOWN_PENDING',
      `A credential teardown for session '${name}' is still in flight. Wait for it to settle and retry.`,
      { retryable: true },
    );
  }
}
