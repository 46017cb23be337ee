/**
 * What every MediaStorage adapter shares: making and checking keys (shared/domain/media.ts) with the same refusals,
 * and reading an upload within the size cap.
 */
import {
  isMediaSessionId,
  type MediaKeyParts,
  mediaKey,
  parseMediaKey,
  servedMediaType,
} from '#shared/domain/media.js';
import { MediaTooLargeError, ValidationError } from '#shared/errors/app-error.js';
import type { MediaUpload } from '#shared/ports/media-storage.port.js';

function invalidKey(what: string): ValidationError {
  return new ValidationError(`Not a media key: ${what}`, { code: 'MEDIA_KEY_INVALID' });
}

/** The key and stored type of an upload; 400 MEDIA_KEY_INVALID when its ids cannot form a key. */
export function uploadKey(upload: MediaUpload): { key: string; mimetype: string } & MediaKeyParts {
  const key = mediaKey(upload.sessionId, upload.messageId, upload.mimetype);
  const parts = key ? parseMediaKey(key) : null;
  if (!key || !parts) {
    throw invalidKey(
      `session ${JSON.stringify(upload.sessionId)}, message ${JSON.stringify(upload.messageId)}`,
    );
  }
  return { key, mimetype: servedMediaType(upload.mimetype), ...parts };
}

/** The parts of a stored key; 400 MEDIA_KEY_INVALID for anything else. */
export function requireMediaKey(path: string): MediaKeyParts {
  const parts = parseMediaKey(path);
  if (!parts) throw invalidKey(JSON.stringify(path));
  return parts;
}

/** A session id that names a folder (prefix) of the archive; 400 MEDIA_KEY_INVALID otherwise. */
export function requireMediaSessionId(sessionId: string): string {
  if (!isMediaSessionId(sessionId)) throw invalidKey(`session ${JSON.stringify(sessionId)}`);
  return sessionId;
}

/**
 * The upload's chunks, stopping with 413 MEDIA_TOO_LARGE as soon as they pass `maxBytes`: a stream is left
 * (and so destroyed) there, never read to its end.
 */
export async function* chunksWithinCap(
  data: MediaUpload['data'],
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) {
    if (data.byteLength > maxBytes) throw new MediaTooLargeError(maxBytes);
    yield data;
    return;
  }
  let size = 0;
  for await (const chunk of data) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new MediaTooLargeError(maxBytes);
    yield chunk;
  }
}

/** The whole upload in one buffer, within the cap (the memory and S3 adapters store it in one request). */
export async function readWithinCap(data: MediaUpload['data'], maxBytes: number): Promise<Uint8Array> {
  if (data instanceof Uint8Array) {
    if (data.byteLength > maxBytes) throw new MediaTooLargeError(maxBytes);
    return data;
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of chunksWithinCap(data, maxBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
