/**
 * Media inside webhook payloads (openwa-facts §4.4, §4.7): a message event whose file is archived and at most
 * WEBHOOK_MEDIA_INLINE_MAX_BYTES travels with its bytes (`media.data`, base64); a larger one, or one the archive
 * cannot give now, travels without them, and its `media.url` names the route that serves it. The bytes are read at
 * delivery and never stored with the event: outbox rows and queue messages stay small (a DynamoDB item holds
 * 400 KB, an SQS message 256 KB).
 */
import type { EventMedia, GatewayEvent } from '#shared/domain/events.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';

/** Where delivery reads the archived file of a stored message. */
export interface DeliveryMedia {
  /** The file of the session's stored message `messageId`; null when the message or its file is gone. */
  read(sessionId: string, messageId: string): Promise<Uint8Array | null>;
}

/** The files of the data store's messages, read from the media archive. */
export function storeDeliveryMedia(
  messages: Pick<MessageStore, 'findById'>,
  media: Pick<MediaStorage, 'get'>,
): DeliveryMedia {
  return {
    async read(sessionId, messageId) {
      const message = await messages.findById(sessionId, messageId);
      if (!message?.mediaPath) return null;
      return (await media.get(message.mediaPath))?.bytes ?? null;
    },
  };
}

export interface InlineMediaOptions {
  source: DeliveryMedia;
  /** WEBHOOK_MEDIA_INLINE_MAX_BYTES: decoded bytes; 0 never inlines. */
  maxBytes: number;
  logger: Logger;
}

/** The file a message event may carry inline: archived (it has a url), not omitted, within the cap by its size. */
function inlinable(media: EventMedia | undefined, maxBytes: number): media is EventMedia {
  if (!media?.url || media.omitted || media.data !== undefined) return false;
  return media.sizeBytes !== undefined && media.sizeBytes <= maxBytes;
}

/**
 * The event with its message's file inline, or null when it has none to inline (another event, no file, over the
 * cap). A file the archive cannot give now is left out, never the delivery: the receiver still has the url.
 */
export async function withInlineMedia(
  event: GatewayEvent,
  options: InlineMediaOptions,
): Promise<GatewayEvent | null> {
  if (event.event !== 'message.received' && event.event !== 'message.sent') return null;
  const { media } = event.data;
  if (options.maxBytes <= 0 || !inlinable(media, options.maxBytes)) return null;
  let bytes: Uint8Array | null;
  try {
    bytes = await options.source.read(event.sessionId, event.data.messageId);
  } catch (error) {
    options.logger.warn(
      { err: error, sessionId: event.sessionId, messageId: event.data.messageId },
      'webhook media not inlined: the archive did not answer',
    );
    return null;
  }
  if (!bytes || bytes.byteLength > options.maxBytes) return null;
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return { ...event, data: { ...event.data, media: { ...media, data } } };
}
