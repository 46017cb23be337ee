/**
 * The host's status operations: posting the account's status (its file read back from the archive, where the use
 * case put it), kept as the account's own with the recipients it went to; and deleting one for everyone, which names
 * those recipients again and drops the row and its file.
 */
import type { EngineStatus } from '#host/engines/ports/status.port.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import type { EngineKind } from '#shared/domain/engine-capabilities.js';
import { capabilityRow } from '#shared/domain/engine-capabilities.js';
import type { HostOperationHandlers } from '#shared/domain/host-operations.js';
import type { StatusPost } from '#shared/domain/status-requests.js';
import { STATUS_LIFETIME_MS, type StatusRecord } from '#shared/domain/status-update.js';
import { personalChatId } from '#shared/domain/wa-ids.js';
import {
  EngineUnsupportedError,
  NotFoundError,
  SessionStateError,
  ValidationError,
} from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import type { StatusStore } from '#shared/ports/status-store.port.js';
import { assertOperationState, notRunning } from '#shared/use-cases/engine/engine-operation-state.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';
import { dropStatusFile } from '#shared/use-cases/maintenance/sweep-expired-statuses.js';
import { engineFailure } from './engine-operations.js';

export interface StatusOperationContext {
  kind: EngineKind;
  sessions: Pick<SessionStore, 'findById'>;
  statuses: StatusStore;
  media: MediaStorage;
  clock: Clock;
  logger: Logger;
  runnerOf(sessionId: string): SessionRunner | undefined;
}

type StatusOperations = Pick<HostOperationHandlers, 'status.post' | 'status.revoke'>;

export function statusOperations(ctx: StatusOperationContext): StatusOperations {
  /** The session's status port and its row, once its engine is ready (the use case checked; the runner may not be). */
  const ready = async (sessionId: string) => {
    requireCapability(ctx.kind, 'status_post');
    const session = await ctx.sessions.findById(sessionId);
    if (!session) throw new NotFoundError(`Session '${sessionId}' not found`);
    const runner = ctx.runnerOf(sessionId);
    if (!runner?.hasLiveEngine) return notRunning(session);
    assertOperationState({}, session);
    // The row may still say ready while this runner's engine reconnects.
    if (!runner.isReady)
      throw new SessionStateError('SESSION_NOT_READY', 'Session is not ready (reconnecting)');
    const port: EngineStatus | null | undefined = runner.port('status');
    if (!port)
      throw new EngineUnsupportedError(ctx.kind, 'status_post', capabilityRow('status_post').summary);
    return { port, phone: session.phone };
  };

  const fileOf = async (post: StatusPost): Promise<Uint8Array | null> => {
    if (post.type === 'text') return null;
    const file = await ctx.media.get(post.file.path);
    if (!file)
      throw new NotFoundError('The status file is gone from the archive', { code: 'MEDIA_NOT_FOUND' });
    return file.bytes;
  };

  return {
    'status.post': async ({ sessionId, statusId, post, recipients }) => {
      const { port, phone } = await ready(sessionId);
      const bytes = await fileOf(post);
      const { timestamp } = await port.post({ statusId, post, bytes, recipients }).catch(engineFailure);
      const postedAt = timestamp * 1000;
      const own: StatusRecord = {
        sessionId,
        statusId,
        contactId: phone ? personalChatId(phone) : 'me',
        pushName: null,
        fromMe: true,
        type: post.type,
        text: post.type === 'text' ? post.text : null,
        caption: post.type === 'image' || post.type === 'video' ? (post.caption ?? null) : null,
        backgroundColor:
          post.type === 'text' || post.type === 'voice' ? (post.backgroundColor ?? null) : null,
        font: post.type === 'text' ? (post.font ?? null) : null,
        media: post.type === 'text' ? null : { mimetype: post.file.mimetype, sizeBytes: post.file.size },
        mediaPath: post.type === 'text' ? null : post.file.path,
        recipients: [...recipients],
        postedAt,
        expiresAt: postedAt + STATUS_LIFETIME_MS,
      };
      await ctx.statuses.insert(own);
      return {
        statusId,
        timestamp: new Date(postedAt).toISOString(),
        expiresAt: new Date(own.expiresAt).toISOString(),
      };
    },

    'status.revoke': async ({ sessionId, statusId }) => {
      const status = await ctx.statuses.find(sessionId, statusId, ctx.clock.now().getTime());
      if (!status) throw new NotFoundError(`Status ${statusId} not found`, { code: 'STATUS_NOT_FOUND' });
      if (!status.fromMe) {
        throw new ValidationError('Only the account’s own status can be deleted for everyone', {
          code: 'STATUS_NOT_OWN',
        });
      }
      const { port } = await ready(sessionId);
      await port.revoke(statusId, status.recipients).catch(engineFailure);
      const removed = await ctx.statuses.delete(sessionId, statusId);
      if (removed) await dropStatusFile(ctx, removed);
      return null;
    },
  };
}
