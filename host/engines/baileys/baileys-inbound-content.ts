/**
 * What a contact's message holds, as the gateway stores it: its kind, body and kind-specific metadata
 * (shared/domain/message-metadata.ts): texts (a reply is a text that quotes another message), locations, contact
 * cards and media (image, video, audio, voice note, document, sticker: the caption as body, the file described in
 * `metadata.media`; the engine downloads it). Reactions, edits and revokes change other messages
 * (baileys-inbound-changes.ts); other protocol messages are not messages of a chat.
 */
import { normalizeMessageContent, type proto } from '@whiskeysockets/baileys';
import type {
  LocationMetadata,
  MediaMetadata,
  QuotedMetadata,
  ReceivedMetadata,
} from '#shared/domain/message-metadata.js';
import { toNeutralJid } from './baileys-jids.js';

/** A received message's kind (the stored `type`), body and metadata. */
export interface InboundContent {
  type: 'text' | 'location' | 'contact' | MediaType;
  body: string | null;
  metadata?: ReceivedMetadata;
}

/** One kind's fields and the context (reply, mentions) its content carries. */
interface Kind {
  type: InboundContent['type'];
  body: string | null;
  metadata: ReceivedMetadata;
  context: proto.IContextInfo | null | undefined;
}

/**
 * The content of `message` as stored, or null for a kind not received yet. Ephemeral and view-once wrappers are
 * unwrapped first; any kind may quote another message (`metadata.quotedMessage`).
 */
export function inboundContent(message: proto.IMessage | null | undefined): InboundContent | null {
  // A status posted to a group is a status update (its own event, later), not a message of the group's chat.
  if (message?.groupStatusMessage || message?.groupStatusMessageV2) return null;
  const kind = kindOf(message);
  if (!kind) return null;
  const quoted = quotedOf(kind.context);
  const metadata: ReceivedMetadata = { ...kind.metadata, ...(quoted ? { quotedMessage: quoted } : {}) };
  return { type: kind.type, body: kind.body, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

function kindOf(message: proto.IMessage | null | undefined): Kind | null {
  const content = normalizeMessageContent(message);
  if (!content) return null;
  if (typeof content.conversation === 'string') {
    return { type: 'text', body: content.conversation, metadata: {}, context: null };
  }
  const text = content.extendedTextMessage;
  if (typeof text?.text === 'string') {
    return { type: 'text', body: text.text, metadata: {}, context: text.contextInfo };
  }
  const location = content.locationMessage;
  if (location) {
    return {
      type: 'location',
      body: location.name || null,
      metadata: { location: locationOf(location) },
      context: location.contextInfo,
    };
  }
  const media = mediaOf(content);
  if (media) return media;
  const card = content.contactMessage ?? content.contactsArrayMessage;
  const cards = content.contactMessage
    ? [content.contactMessage]
    : (content.contactsArrayMessage?.contacts ?? []);
  if (card && cards.length > 0) {
    return {
      type: 'contact',
      body: present(cards.map((c) => c.displayName)).join(', ') || null,
      metadata: { vCards: present(cards.map((c) => c.vcard)) },
      context: card.contextInfo,
    };
  }
  return null;
}

type MediaType = 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker';

/** The fields every WhatsApp media message shares (what the kind reads). */
interface MediaFields {
  mimetype?: string | null;
  fileLength?: number | Long | null;
  caption?: string | null;
  fileName?: string | null;
  seconds?: number | null;
  contextInfo?: proto.IContextInfo | null;
}

interface Long {
  toNumber(): number;
}

/** A media message's kind: its caption as body, its file described (the bytes come with the download). */
function mediaOf(content: proto.IMessage): Kind | null {
  const document = content.documentMessage ?? content.documentWithCaptionMessage?.message?.documentMessage;
  const found: Array<[MediaType, MediaFields | null | undefined]> = [
    ['image', content.imageMessage],
    ['video', content.videoMessage],
    [content.audioMessage?.ptt ? 'voice' : 'audio', content.audioMessage],
    ['document', document],
    ['sticker', content.stickerMessage],
  ];
  const hit = found.find(([, fields]) => fields);
  if (!hit?.[1]) return null;
  const [type, fields] = hit;
  const length = fields.fileLength;
  const size =
    length === null || length === undefined
      ? undefined
      : typeof length === 'number'
        ? length
        : length.toNumber();
  const media: MediaMetadata = {
    mimetype: fields.mimetype || 'application/octet-stream',
    ...(fields.fileName ? { filename: fields.fileName } : {}),
    ...(size !== undefined && Number.isFinite(size) ? { sizeBytes: size } : {}),
    ...(fields.seconds ? { seconds: fields.seconds } : {}),
  };
  return { type, body: fields.caption || null, metadata: { media }, context: fields.contextInfo };
}

function locationOf(location: proto.Message.ILocationMessage): LocationMetadata {
  return {
    // A coordinate of 0 is still sent (proto2 optional); one that is missing altogether reads as 0 as well.
    latitude: location.degreesLatitude ?? 0,
    longitude: location.degreesLongitude ?? 0,
    ...(location.name ? { description: location.name } : {}),
    ...(location.address ? { address: location.address } : {}),
    ...(location.url ? { url: location.url } : {}),
  };
}

/**
 * The message a reply quotes: WhatsApp names it by id (`stanzaId`) and sends a copy of its content along, whose
 * body is read as the quoted message's own would be. Other context (mentions, forwarding) quotes nothing.
 */
function quotedOf(context: proto.IContextInfo | null | undefined): QuotedMetadata | null {
  if (!context?.stanzaId) return null;
  return {
    id: context.stanzaId,
    body: kindOf(context.quotedMessage)?.body ?? null,
    ...(context.participant ? { participant: toNeutralJid(context.participant) } : {}),
  };
}

function present(values: Array<string | null | undefined>): string[] {
  return values.filter((value): value is string => !!value);
}
