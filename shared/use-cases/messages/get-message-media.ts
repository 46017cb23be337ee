/**
 * A message's archived media (openwa-facts §1.2 `…/:chatId/:messageId/media`): the file, served as an attachment
 * with an allow-listed type; or, from a storage that can hand out short-lived URLs (S3) and for a file larger than a
 * Lambda answer can carry, a redirect to such a URL.
 */
import type { Caller } from '#shared/domain/caller.js';
import { servedMediaType } from '#shared/domain/media.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { findChatMessage } from './find-chat-message.js';

/**
 * The largest file answered in the body when the storage can redirect instead. A Lambda answer carries at most 6 MB,
 * and a binary body travels base64-encoded (a third larger): 4 MiB stays clear of that with room for the headers.
 */
export const SERVED_INLINE_MAX_BYTES = 4 * 1024 * 1024;

/** How long a redirect's presigned URL works. */
export const PRESIGNED_URL_TTL_SECONDS = 60;

/** The file with the headers it is served with, or where to fetch it from. */
export type MediaAnswer =
  | { kind: 'file'; bytes: Uint8Array; contentType: string; contentDisposition: string }
  | { kind: 'redirect'; url: string };

const noMedia = () => new NotFoundError('No media stored for this message', { code: 'MEDIA_NOT_FOUND' });

/**
 * 404 for an unknown session or message (network id or stored id; MESSAGE_NOT_FOUND), and MEDIA_NOT_FOUND when the
 * message has no archived media or its file is gone.
 */
export async function getMessageMedia(
  deps: Pick<CoreDeps, 'data' | 'media'>,
  caller: Caller,
  sessionId: string,
  chatId: string,
  messageId: string,
): Promise<MediaAnswer> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const message = await findChatMessage(deps.data.messages, sessionId, chatId, messageId);
  const path = message.mediaPath;
  const answer = path ? await serveArchivedFile(deps.media, path, message.mediaMimetype) : null;
  if (!answer) throw noMedia();
  return answer;
}

/**
 * An archived file as an answer: the file itself, or a redirect to a short-lived URL for one too large for a
 * Lambda answer where the storage hands such URLs out; null when the file is gone. `mimetype` is the row's.
 */
export async function serveArchivedFile(
  media: MediaStorage,
  path: string,
  mimetype: string | null,
): Promise<MediaAnswer | null> {
  if (media.presignedUrl) {
    const info = await media.stat(path);
    if (!info) return null;
    if (info.size > SERVED_INLINE_MAX_BYTES) {
      const url = await media.presignedUrl(path, {
        ttlSeconds: PRESIGNED_URL_TTL_SECONDS,
        contentType: servedMediaType(mimetype ?? info.mimetype),
        contentDisposition: attachment(info.fileName),
      });
      return { kind: 'redirect', url };
    }
  }
  const file = await media.get(path);
  if (!file) return null;
  return {
    kind: 'file',
    bytes: file.bytes,
    contentType: servedMediaType(mimetype ?? file.mimetype),
    contentDisposition: attachment(file.fileName),
  };
}

/** Always a download, never rendered in the API's origin; the name is the key's (letters, digits, `_-.` only). */
function attachment(fileName: string): string {
  return `attachment; filename="${fileName}"`;
}
