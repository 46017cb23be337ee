/**
 * Media a simulated contact sends: the bytes come as base64 through the admin API; the contact encrypts them as
 * WhatsApp does (`media-crypto.ts`, Baileys' `encryptedStream`), puts the blob on the media host (the store: the
 * contact is in-process) and sends the media message with its URL, direct path, key, hashes and length, as
 * Baileys' `prepareWAMessageMedia` builds it.
 */
import type { proto } from '@whiskeysockets/baileys';
import { z } from 'zod';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { badRequest } from '#tests/wa-sim/support/errors.js';
import { unixNow } from '#tests/wa-sim/transport/binary.js';
import { encryptMedia, type MediaKind, uploadTypeOf } from './media-crypto.js';

/** The most base64 text a media `data` may carry (16 MiB, i.e. 12 MiB of bytes). */
export const MAX_MEDIA_BASE64 = 16 * 1024 * 1024;

/** A media message's bytes, standard base64. */
export const MediaData = z
  .string()
  .min(1)
  .max(MAX_MEDIA_BASE64, `data is at most ${MAX_MEDIA_BASE64} characters of base64`)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'data is standard base64');
/** A media message's mimetype. */
export const Mimetype = z
  .string()
  .max(255)
  .regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, 'a mimetype looks like image/jpeg');
/** An image's, video's or document's caption. */
export const Caption = z.string().min(1).max(65_536);
/** A video's or audio's length. */
export const Seconds = z.number().int().min(0).max(86_400);

/** The media kinds of `POST /admin/contacts/{number}/messages` `content` (`type`: image, video…). */
export const MEDIA_CONTENT = [
  z.object({
    type: z.literal('image'),
    data: MediaData,
    mimetype: Mimetype.optional(),
    caption: Caption.optional(),
  }),
  z.object({
    type: z.literal('video'),
    data: MediaData,
    mimetype: Mimetype.optional(),
    caption: Caption.optional(),
    seconds: Seconds.optional(),
    gif: z.boolean().optional(),
  }),
  z.object({
    type: z.literal('audio'),
    data: MediaData,
    mimetype: Mimetype.optional(),
    ptt: z.boolean().optional(),
    seconds: Seconds.optional(),
  }),
  z.object({
    type: z.literal('document'),
    data: MediaData,
    mimetype: Mimetype.optional(),
    fileName: z.string().min(1).max(255).optional(),
    caption: Caption.optional(),
  }),
  z.object({ type: z.literal('sticker'), data: MediaData, mimetype: Mimetype.optional() }),
] as const;

/** One media message a contact sends. */
export type MediaContent = z.infer<(typeof MEDIA_CONTENT)[number]>;

/** A contact's media message ready to encrypt: the proto, how it is recorded, its stanza attributes. */
export interface MediaOutgoing {
  readonly message: proto.IMessage;
  readonly record: { readonly kind: MediaKind; readonly text?: string };
  readonly attrs: Readonly<Record<string, string>>;
}

/** What each kind is sent as without a mimetype (Baileys' `MIMETYPE_MAP`). */
const DEFAULT_MIMETYPE: Readonly<Record<MediaKind, string>> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/ogg; codecs=opus',
  document: 'application/pdf',
  sticker: 'image/webp',
};

/** Whether `content` is one of the media kinds. */
export function isMediaContent<T extends { type: string }>(content: T): content is T & MediaContent {
  return content.type in DEFAULT_MIMETYPE;
}

/** Encrypts and stores `content`'s bytes and builds its media message. */
export async function mediaOutgoing(sim: Simulator, content: MediaContent): Promise<MediaOutgoing> {
  const plaintext = Buffer.from(content.data, 'base64');
  if (plaintext.length === 0) throw badRequest('data: no bytes');
  const encrypted = await encryptMedia(plaintext, content.type);
  const { url, directPath } = sim.media.put(uploadTypeOf(content.type), encrypted.blob);
  const common = {
    url,
    directPath,
    mediaKey: encrypted.mediaKey,
    fileEncSha256: encrypted.fileEncSha256,
    fileSha256: encrypted.fileSha256,
    fileLength: encrypted.fileLength,
    mimetype: content.mimetype ?? DEFAULT_MIMETYPE[content.type],
    mediaKeyTimestamp: unixNow(),
  };
  const caption = 'caption' in content ? content.caption : undefined;
  return {
    message: { [`${content.type}Message`]: { ...common, ...details(content) } },
    record: { kind: content.type, ...(caption ? { text: caption } : {}) },
    attrs: { type: 'media' },
  };
}

/** The fields of each kind besides the blob's. */
function details(content: MediaContent): Record<string, unknown> {
  switch (content.type) {
    case 'image':
      return { caption: content.caption };
    case 'video':
      return { caption: content.caption, seconds: content.seconds, gifPlayback: content.gif };
    case 'audio':
      return { ptt: content.ptt, seconds: content.seconds };
    case 'document':
      // Baileys names a document `file` when the sender gives no name.
      return { fileName: content.fileName ?? 'file', caption: content.caption };
    case 'sticker':
      return {};
  }
}
