import { getDeps } from '#functions/deps.js';

/**
 * Lambda: buffered writes (the audit's background entries) go out before the answer, as an instance may be frozen
 * once it has answered; a failure is logged, the answer stands. Without a flush (embedded) nothing is returned, so
 * the request takes no extra turn of the event loop.
 */
export function flushAfterRequest(): Promise<void> | undefined {
  const deps = getDeps();
  return deps
    .flushAfterRequest?.()
    .catch((error: unknown) => deps.logger.error({ err: error }, 'flush failed'));
}
