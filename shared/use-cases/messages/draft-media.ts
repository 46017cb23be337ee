/**
 * The file of a media send, fetched or decoded and archived before the message row is stored, so the row, the
 * queue and the host carry only its key. A URL is fetched by the service through the SSRF guard (never following
 * redirects, up to the archive's size cap); base64 is size-checked before it is decoded. The type must be one the
 * kind may be sent as.
 */
import type { FileBytes } from '#shared/domain/engine-operations/engine-operation.js';
import { type ArchivedFile, acceptsMediaType, type MediaKind } from '#shared/domain/media-content.js';
import type { OutgoingContent } from '#shared/domain/outgoing-content.js';
import type { MediaDraft, MediaSource } from '#shared/domain/send-requests.js';
import { MediaTooLargeError, ValidationError } from '#shared/errors/app-error.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaFetcher } from '#shared/ports/media-fetcher.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import { UrlNotAllowedError } from '#shared/security/ssrf-guard.js';

/** What archiving a send's file needs; absent where media cannot be sent (the host's own sends). */
export interface DraftFiles {
  media: MediaStorage;
  fetcher: MediaFetcher;
  /** How long fetching a URL may take. */
  fetchTimeoutMs: number;
}

/** How long a media URL of a send may take to download (inside API Gateway's 30 s). */
export const MEDIA_FETCH_TIMEOUT_MS = 20_000;

/** What WhatsApp plays as a voice note when a ptt send gives no type. */
const VOICE_NOTE_TYPE = 'audio/ogg; codecs=opus';

/** Fetches or decodes the draft's file, checks its type and archives it under the message's id. */
export async function archiveDraftFile(
  files: DraftFiles,
  target: { sessionId: string; messageId: string },
  draft: MediaDraft,
): Promise<ArchivedFile> {
  const declared = draft.mimetype ?? (draft.ptt ? VOICE_NOTE_TYPE : undefined);
  const { bytes, mimetype } = await readMediaFile(files, draft.type, draft.source, declared);
  const stored = await files.media.put({ ...target, mimetype, data: bytes });
  return {
    path: stored.path,
    mimetype,
    size: stored.size,
    ...(draft.fileName ? { fileName: draft.fileName } : {}),
  };
}

/** A copy of an archived file under another message's id; null when the file is gone. */
export async function copyArchivedFile(
  files: Pick<DraftFiles, 'media'>,
  target: { sessionId: string; messageId: string },
  source: ArchivedFile,
): Promise<ArchivedFile | null> {
  const stored = await files.media.get(source.path);
  if (!stored) return null;
  const copy = await files.media.put({ ...target, mimetype: source.mimetype, data: stored.bytes });
  return { ...source, path: copy.path, size: copy.size };
}

/**
 * Removes the file a send archived for a message that was never stored (a pacing refusal, a store failure): the
 * file belongs to that message alone. A failure is logged, never thrown over the send's own error.
 */
export async function discardDraftFile(
  files: Pick<DraftFiles, 'media'> | undefined,
  content: OutgoingContent | undefined,
  logger: Logger,
): Promise<void> {
  const path = content && 'file' in content ? content.file.path : undefined;
  if (!files || !path) return;
  await files.media.delete(path).catch((error: unknown) => {
    logger.warn({ err: error, path }, 'media of an unsent message not removed');
  });
}

/**
 * The file of `source` with its type (`declared`, or what the URL answered with), fetched or decoded: 400 when it is
 * empty or of a type `kind` cannot be; 413 past the archive's size cap. What a media send archives, and what the
 * host hands an engine as bytes (a group's picture).
 */
export async function readMediaFile(
  files: DraftFiles,
  kind: MediaKind,
  source: MediaSource,
  declared: string | undefined,
): Promise<FileBytes> {
  const { bytes, mimetype } = await bytesOf(files, source, declared);
  if (bytes.byteLength === 0) throw new ValidationError(`The ${kind} file is empty`);
  if (!acceptsMediaType(kind, mimetype)) {
    throw new ValidationError(`A ${kind} cannot be sent as ${mimetype}`, { code: 'MEDIA_TYPE_NOT_ALLOWED' });
  }
  return { bytes, mimetype };
}

async function bytesOf(
  files: DraftFiles,
  source: MediaSource,
  declared: string | undefined,
): Promise<FileBytes> {
  if ('data' in source) {
    const { data } = source;
    // The decoded size is known from the text: a file over the cap is refused before it is decoded.
    if (Math.floor((data.length * 3) / 4) > files.media.maxBytes)
      throw new MediaTooLargeError(files.media.maxBytes);
    return { bytes: Buffer.from(data, 'base64'), mimetype: declared ?? 'application/octet-stream' };
  }
  const fetched = await files.fetcher.fetch(source.url, {
    maxBytes: files.media.maxBytes,
    timeoutMs: files.fetchTimeoutMs,
  });
  if (!fetched.ok) {
    if (fetched.reason === 'refused') {
      throw new UrlNotAllowedError('blocked_address', 'the media URL is not one the service may fetch');
    }
    if (fetched.reason === 'too_large') throw new MediaTooLargeError(files.media.maxBytes);
    throw new ValidationError(`The media URL could not be fetched: ${fetched.error}`, {
      code: 'MEDIA_FETCH_FAILED',
    });
  }
  const mimetype = declared ?? fetched.contentType?.split(',')[0]?.trim();
  if (!mimetype) {
    throw new ValidationError('The media URL gave no Content-Type: give mimetype', {
      code: 'MEDIA_TYPE_NOT_ALLOWED',
    });
  }
  return { bytes: fetched.bytes, mimetype };
}
