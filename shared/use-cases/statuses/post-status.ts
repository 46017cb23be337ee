/**
 * Posting and deleting the account's status updates (openwa-facts §1.7). A post's file is fetched (SSRF-guarded)
 * or decoded and archived here, under the network id generated for it, before the host is asked: the host RPC
 * carries the key, never the bytes, as a media send's queue does. The host posts it through the engine and keeps it
 * as the account's own (GET …/status lists it; its recipients are what a delete names again).
 */
import type { Caller } from '#shared/domain/caller.js';
import type { MediaKind } from '#shared/domain/media-content.js';
import type { MediaSource } from '#shared/domain/send-requests.js';
import type { StatusPost, StatusPosted } from '#shared/domain/status-requests.js';
import { generateWaMessageId } from '#shared/domain/wa-ids.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { assertOperationState } from '#shared/use-cases/engine/engine-operation-state.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';
import { archiveDraftFile, type DraftFiles } from '#shared/use-cases/messages/draft-media.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';

type PostDeps = Pick<CoreDeps, 'data' | 'host' | 'engine' | 'logger'> & { files: DraftFiles };

/** What to post: a text as it is, or a media kind's file still at its source. */
export type StatusDraft =
  | Extract<StatusPost, { type: 'text' }>
  | {
      type: 'image' | 'video' | 'voice';
      source: MediaSource;
      mimetype?: string | undefined;
      caption?: string | undefined;
      backgroundColor?: string | undefined;
    };

const KIND_OF = { image: 'image', video: 'video', voice: 'audio' } as const satisfies Record<
  string,
  MediaKind
>;

/**
 * `POST …/status/send-*` (201): 501 where the engine cannot post, 403 outside the caller's scope, 404 unknown
 * session, 400 SESSION_NOT_READY unless it is ready; a bad or unreachable file 400/413 as for media sends.
 */
export async function postStatus(
  deps: PostDeps,
  caller: Caller,
  sessionId: string,
  draft: StatusDraft,
  recipients: readonly string[],
): Promise<StatusPosted> {
  requireCapability(deps.engine, 'status_post');
  assertOperationState({}, await loadSession(deps.data.sessions, caller, sessionId));
  const statusId = generateWaMessageId();
  const post = await postOf(deps.files, { sessionId, messageId: `status_${statusId}` }, draft);
  try {
    return await deps.host.call('status.post', { sessionId, statusId, post, recipients: [...recipients] });
  } catch (error) {
    // Not posted: the file was archived for this post alone.
    if (post.type !== 'text') {
      await deps.files.media.delete(post.file.path).catch((cause: unknown) => {
        deps.logger.warn({ err: cause, sessionId }, 'file of an unposted status not removed');
      });
    }
    throw error;
  }
}

async function postOf(
  files: DraftFiles,
  target: { sessionId: string; messageId: string },
  draft: StatusDraft,
): Promise<StatusPost> {
  if (draft.type === 'text') return draft;
  const { type, source, mimetype, caption, backgroundColor } = draft;
  const file = await archiveDraftFile(files, target, {
    type: KIND_OF[type],
    source,
    mimetype,
    ptt: type === 'voice',
  });
  if (type === 'voice') return { type, file, ...(backgroundColor ? { backgroundColor } : {}) };
  return { type, file, ...(caption ? { caption } : {}) };
}

/** `DELETE …/status/{statusId}`: deletes the account's own status for everyone (404 unknown, 400 another's). */
export async function deleteStatus(
  deps: Pick<CoreDeps, 'data' | 'host' | 'engine'>,
  caller: Caller,
  sessionId: string,
  statusId: string,
): Promise<{ message: string }> {
  requireCapability(deps.engine, 'status_post');
  assertOperationState({}, await loadSession(deps.data.sessions, caller, sessionId));
  await deps.host.call('status.revoke', { sessionId, statusId });
  return { message: 'Status deleted successfully' };
}
