/**
 * Downloads the file of a contact's media message before the message is handed over, through Baileys' real download
 * path (the media host named in the message, decrypted and checked with the message's media key). The message is
 * never held back by its file: one over the size cap is not fetched, and one the network will not give (gone,
 * undecryptable, too slow) is described as omitted while the message itself is stored.
 */
import { downloadMediaMessage, type WAMessage } from '@whiskeysockets/baileys';
import type { Dispatcher } from 'undici';
import type { InboundMessage, InboundStatus } from '#host/engines/engine-events.js';
import type { MediaMetadata } from '#shared/domain/message-metadata.js';

export interface InboundMediaOptions {
  /** The archive's size cap (MEDIA_DOWNLOAD_MAX_BYTES): a larger file is not downloaded. */
  maxBytes: number;
  /** How long one download may take before the message is stored without its file. */
  timeoutMs: number;
  /** The session's proxy for the download, or undefined to fetch directly. */
  dispatcher?: Dispatcher | undefined;
}

/** `inbound` with its file attached, or with `metadata.media.omitted` saying why there is none. */
export async function withMediaFile(
  message: WAMessage,
  inbound: InboundMessage,
  options: InboundMediaOptions,
): Promise<InboundMessage> {
  const media = inbound.metadata?.media;
  if (!media) return inbound;
  const file = await downloadFile(message, media, options);
  return {
    ...inbound,
    metadata: { ...inbound.metadata, media: file.media },
    ...(file.bytes ? { mediaBytes: file.bytes } : {}),
  };
}

/** A contact's status with its file attached, or with `media.omitted` saying why there is none. */
export async function withStatusFile(
  message: WAMessage,
  status: InboundStatus,
  options: InboundMediaOptions,
): Promise<InboundStatus> {
  if (status.kind !== 'posted' || !status.media) return status;
  const file = await downloadFile(message, status.media, options);
  return { ...status, media: file.media, ...(file.bytes ? { mediaBytes: file.bytes } : {}) };
}

/** The message's file and its description with the size downloaded, or the description with why it is missing. */
async function downloadFile(
  message: WAMessage,
  media: MediaMetadata,
  options: InboundMediaOptions,
): Promise<{ media: MediaMetadata; bytes?: Uint8Array<ArrayBuffer> }> {
  if ((media.sizeBytes ?? 0) > options.maxBytes) return omitted(media, 'too_large');
  let timer: NodeJS.Timeout | undefined;
  try {
    const bytes = await Promise.race([
      // Baileys hands `options` to fetch: a proxied session's download goes through its proxy's dispatcher.
      downloadMediaMessage(
        message,
        'buffer',
        options.dispatcher
          ? // @types/node types fetch's dispatcher with its own copy of undici's types (undici-types).
            { options: { dispatcher: options.dispatcher } as unknown as RequestInit }
          : {},
      ),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('media download timed out')), options.timeoutMs);
      }),
    ]);
    if (bytes.byteLength > options.maxBytes) return omitted(media, 'too_large');
    return {
      media: { ...media, sizeBytes: bytes.byteLength },
      // The downloaded buffer itself, viewed as the Uint8Array the port names: a file is never copied here.
      bytes: new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength),
    };
  } catch {
    return omitted(media, 'download_failed');
  } finally {
    clearTimeout(timer);
  }
}

function omitted(
  media: MediaMetadata,
  reason: NonNullable<MediaMetadata['omitted']>,
): { media: MediaMetadata } {
  return { media: { ...media, omitted: reason } };
}
