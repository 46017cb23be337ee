/**
 * Outgoing media content: an image, video, audio (a voice note with `ptt`), document or sticker whose file is
 * already in the media archive (`file.path`, stored by the send use case before the row), so the row, the queue and
 * the host carry a reference, never the bytes. The host reads the file back when it sends.
 */
import { z } from 'zod';

/** A file in the media archive: its key, the type it was sent as, its size, and a document's name. */
export const ArchivedFile = z.object({
  path: z.string().min(1).max(512),
  /** The type as the request gave it (e.g. `audio/ogg; codecs=opus`), which the recipient's app reads. */
  mimetype: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  fileName: z.string().min(1).max(255).optional(),
});
export type ArchivedFile = z.infer<typeof ArchivedFile>;

export const CAPTION_MAX = 1024;

/** The media kinds, and the media types each accepts (a sticker is a WebP image, as WhatsApp requires). */
export const MEDIA_KINDS = {
  image: /^image\/(jpeg|png|webp|gif)$/,
  video: /^video\/(mp4|3gpp|quicktime|webm)$/,
  audio: /^audio\/[a-z0-9.+-]+$/,
  document: /^[a-z]+\/[a-z0-9.+-]+$/,
  sticker: /^image\/webp$/,
} as const;
export type MediaKind = keyof typeof MEDIA_KINDS;

/** True when `mimetype` (parameters such as `; codecs=opus` aside) is one `kind` may be sent as. */
export function acceptsMediaType(kind: MediaKind, mimetype: string): boolean {
  const base = mimetype.split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_KINDS[kind].test(base);
}

const Caption = z.string().min(1).max(CAPTION_MAX).optional();

export const MediaContentShapes = {
  image: { type: z.literal('image'), file: ArchivedFile, caption: Caption },
  video: { type: z.literal('video'), file: ArchivedFile, caption: Caption },
  audio: { type: z.literal('audio'), file: ArchivedFile, ptt: z.boolean() },
  document: { type: z.literal('document'), file: ArchivedFile, caption: Caption },
  sticker: { type: z.literal('sticker'), file: ArchivedFile },
} as const;
