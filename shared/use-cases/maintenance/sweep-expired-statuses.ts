import type { StatusRecord } from '#shared/domain/status-update.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { StatusStore } from '#shared/ports/status-store.port.js';

/** Statuses removed per round: each round's files go before the next is read. */
const BATCH = 500;

/**
 * Removes every status update that expired (24 h after posting) and the files of those that had one: the host runs
 * it every hour, the maintenance Lambda daily. Reads never answer an expired status, so this only frees the space.
 * Answers how many went; a file that cannot be deleted is logged and left (the row is gone, nothing points at it).
 */
/**
 * Removes the file of a status that is gone (expired, deleted by its poster or for everyone). After the row, so a
 * failure leaves at worst an orphaned file, never a row pointing at nothing; it is logged, never thrown.
 */
export async function dropStatusFile(
  deps: { media: Pick<MediaStorage, 'delete'>; logger: Logger },
  status: Pick<StatusRecord, 'mediaPath' | 'sessionId'>,
): Promise<void> {
  if (!status.mediaPath) return;
  await deps.media.delete(status.mediaPath).catch((error: unknown) => {
    deps.logger.warn({ err: error, sessionId: status.sessionId }, 'status media not deleted');
  });
}

export async function sweepExpiredStatuses(deps: {
  statuses: StatusStore;
  media: Pick<MediaStorage, 'delete'>;
  clock: Clock;
  logger: Logger;
}): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = await deps.statuses.deleteExpired(deps.clock.now().getTime(), BATCH);
    await Promise.all(expired.map((status) => dropStatusFile(deps, status)));
    removed += expired.length;
    if (expired.length < BATCH) return removed;
  }
}
