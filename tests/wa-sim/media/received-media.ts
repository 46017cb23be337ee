/**
 * A contact opening a media message it received, as a phone does before showing it: the blob at the message's
 * direct path (or URL) on the media host, read from the simulator's store since the contact lives in-process,
 * then checked and decrypted with the message's media key (`media-crypto.ts`). Opened again on demand for the
 * admin API, so the contact keeps no plaintext copy: the store's bound is the only one.
 */
import { getContentType, normalizeMessageContent, type proto } from '@whiskeysockets/baileys';
import { isMedia, type MediaError, type ReceivedContent } from '#tests/wa-sim/messaging/received-content.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { decryptMedia, MediaIntegrityError, type MediaKind, type MediaRef, sha256 } from './media-crypto.js';

/** The plaintext, or why there is none. */
export type OpenedMedia =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly error: MediaError; readonly reason: string };

type MediaField = proto.Message.IImageMessage & { fileName?: string | null };

const KIND_OF_FIELD: Readonly<Record<string, MediaKind>> = {
  imageMessage: 'image',
  videoMessage: 'video',
  audioMessage: 'audio',
  documentMessage: 'document',
  stickerMessage: 'sticker',
};

/** The media of `message` (wrappers taken off), when it is an image, video, audio, document or sticker. */
export function mediaRefOf(message: proto.IMessage | null | undefined): MediaRef | undefined {
  const inner = normalizeMessageContent(message ?? undefined);
  const type = getContentType(inner);
  const kind = type ? KIND_OF_FIELD[type] : undefined;
  const field = (type ? inner?.[type] : undefined) as MediaField | null | undefined;
  if (!kind || !field) return undefined;
  const { mimetype, mediaKey, fileSha256, fileEncSha256, directPath, url } = field;
  return { kind, mimetype: mimetype ?? '', mediaKey, fileSha256, fileEncSha256, directPath, url };
}

/** Downloads (from the store), checks and decrypts the media `ref` points at. */
export async function openMedia(sim: Simulator, ref: MediaRef): Promise<OpenedMedia> {
  const location = ref.directPath || (ref.url && sim.media.isOwnUrl(ref.url) ? ref.url : undefined);
  const blob = location ? sim.media.get(location) : undefined;
  if (!blob) {
    const reason = location ? `no blob at ${location} (never uploaded, or evicted)` : 'no direct path or url';
    return { ok: false, error: 'notFound', reason };
  }
  try {
    return { ok: true, bytes: await decryptMedia(blob, ref.kind, ref) };
  } catch (error) {
    if (error instanceof MediaIntegrityError)
      return { ok: false, error: 'decryptError', reason: error.reason };
    throw error;
  }
}

/** What opening the media `ref` points at gave: the plaintext's sha256 (hex) and size, or the error (logged). */
export async function openedFacts(
  sim: Simulator,
  id: string,
  ref: MediaRef,
): Promise<{ readonly sha256: string; readonly size: number } | { readonly mediaError: MediaError }> {
  const opened = await openMedia(sim, ref);
  if (opened.ok) return { sha256: sha256(opened.bytes).toString('hex'), size: opened.bytes.length };
  sim.log.warn(`message ${id}: a contact could not open its ${ref.kind}: ${opened.reason}`);
  return { mediaError: opened.error };
}

/** `content` with what opening its media gave: the plaintext's sha256 and size, or the error (logged). */
export async function withOpenedMedia(
  sim: Simulator,
  id: string,
  content: ReceivedContent,
  ref: MediaRef | undefined,
): Promise<ReceivedContent> {
  if (!ref || !isMedia(content)) return content;
  return { ...content, ...(await openedFacts(sim, id, ref)) };
}
