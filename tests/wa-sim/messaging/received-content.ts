/**
 * What a contact makes of a message it decrypted: its content by kind, as a phone would show it. Wrappers
 * (`ephemeralMessage`, `viewOnceMessage`, `editedMessage`…) are taken off with Baileys' own
 * `normalizeMessageContent`, then one decoder per content field reads it; a field without a decoder is `other`.
 * A new kind is one more member of `ReceivedContent` and one more entry in `DECODERS`. Media kinds are decoded
 * here from the message alone; `media/received-media.ts` then downloads, checks and decrypts the blob.
 */
import { getContentType, normalizeMessageContent, proto } from '@whiskeysockets/baileys';
import type { MediaKind } from '#tests/wa-sim/media/media-crypto.js';
import { messageText } from '#tests/wa-sim/transport/binary.js';

/** What a message quoting or forwarding another says about it (its `contextInfo`). */
export interface ReceivedContext {
  /** The id of the message it replies to (`contextInfo.stanzaId`). */
  readonly quotedId?: string;
  /** Sent as forwarded (`contextInfo.isForwarded`). */
  readonly forwarded?: true;
}

/** A text (`conversation` or `extendedTextMessage`). */
export interface ReceivedText extends ReceivedContext {
  readonly kind: 'text';
  readonly text: string;
  /** The jids it mentions, as sent (`contextInfo.mentionedJid`). */
  readonly mentions?: string[];
}

/** A location (`locationMessage`). */
export interface ReceivedLocation extends ReceivedContext {
  readonly kind: 'location';
  readonly latitude: number;
  readonly longitude: number;
  readonly name?: string;
  readonly address?: string;
}

/** One contact card; `displayName` is absent when the sender set none on the card itself. */
export interface ReceivedCard {
  readonly displayName?: string;
  readonly vcard: string;
}

/** One or more contact cards (`contactMessage`, `contactsArrayMessage`). */
export interface ReceivedContactCards extends ReceivedContext {
  readonly kind: 'contact';
  readonly contacts: ReceivedCard[];
  /** The list's own name (`contactsArrayMessage.displayName`), when several cards came together. */
  readonly displayName?: string;
}

/** A reaction to an earlier message; an empty emoji takes the sender's reaction back. */
export interface ReceivedReaction {
  readonly kind: 'reaction';
  readonly targetId: string;
  readonly emoji: string;
}

/** A new text for an earlier message of the sender (`protocolMessage` MESSAGE_EDIT). */
export interface ReceivedEdit {
  readonly kind: 'edit';
  readonly targetId: string;
  readonly text: string;
}

/** An earlier message of the sender deleted for everyone (`protocolMessage` REVOKE). */
export interface ReceivedRevoke {
  readonly kind: 'revoke';
  readonly targetId: string;
}

/** Why a contact could not show a media message: no blob at its path, or a check or decryption failed. */
export type MediaError = 'notFound' | 'decryptError';

/**
 * An image, video, audio (`ptt`: a voice note), document or sticker. `sha256` (hex) and `size` are those of the
 * plaintext the contact downloaded, checked and decrypted; `mediaError` replaces them when that failed.
 */
export interface ReceivedMedia extends ReceivedContext {
  readonly kind: MediaKind;
  readonly mimetype: string;
  readonly sha256?: string;
  readonly size?: number;
  readonly mediaError?: MediaError;
  readonly caption?: string;
  readonly fileName?: string;
  readonly ptt?: true;
  readonly gif?: true;
  readonly seconds?: number;
}

/** Anything the contact does not decode yet; `type` is the proto field (`imageMessage`, `pollCreationMessageV3`…). */
export interface ReceivedOther {
  readonly kind: 'other';
  readonly type: string;
}

/** The decoded content of a message a contact received, by `kind`. */
export type ReceivedContent =
  | ReceivedText
  | ReceivedLocation
  | ReceivedContactCards
  | ReceivedReaction
  | ReceivedEdit
  | ReceivedRevoke
  | ReceivedMedia
  | ReceivedOther;

type Decoder = (message: proto.IMessage) => ReceivedContent | undefined;

const { MESSAGE_EDIT, REVOKE } = proto.Message.ProtocolMessage.Type;

/** A decoder per content field; one that answers undefined falls back to `other`. */
const DECODERS: Readonly<Record<string, Decoder>> = {
  conversation: (m) => (m.conversation ? { kind: 'text', text: m.conversation } : undefined),
  extendedTextMessage: ({ extendedTextMessage: text }) => {
    if (typeof text?.text !== 'string') return undefined;
    const mentions = text.contextInfo?.mentionedJid;
    return {
      kind: 'text',
      text: text.text,
      ...(mentions?.length ? { mentions: [...mentions] } : {}),
      ...context(text.contextInfo),
    };
  },
  locationMessage: ({ locationMessage: location }) => {
    if (!location) return undefined;
    return {
      kind: 'location',
      latitude: location.degreesLatitude ?? 0,
      longitude: location.degreesLongitude ?? 0,
      ...present({ name: location.name, address: location.address }),
      ...context(location.contextInfo),
    };
  },
  contactMessage: ({ contactMessage: card }) =>
    card ? { kind: 'contact', contacts: [cardOf(card)], ...context(card.contextInfo) } : undefined,
  contactsArrayMessage: ({ contactsArrayMessage: list }) => {
    if (!list) return undefined;
    return {
      kind: 'contact',
      contacts: (list.contacts ?? []).map(cardOf),
      ...present({ displayName: list.displayName }),
      ...context(list.contextInfo),
    };
  },
  imageMessage: ({ imageMessage: image }) =>
    image ? media('image', image, present({ caption: image.caption })) : undefined,
  videoMessage: ({ videoMessage: video }) =>
    video
      ? media('video', video, {
          ...present({ caption: video.caption }),
          ...(video.gifPlayback ? { gif: true as const } : {}),
          ...(video.seconds ? { seconds: video.seconds } : {}),
        })
      : undefined,
  audioMessage: ({ audioMessage: audio }) =>
    audio
      ? media('audio', audio, {
          ...(audio.ptt ? { ptt: true as const } : {}),
          ...(audio.seconds ? { seconds: audio.seconds } : {}),
        })
      : undefined,
  documentMessage: ({ documentMessage: document }) =>
    document
      ? media('document', document, present({ caption: document.caption, fileName: document.fileName }))
      : undefined,
  stickerMessage: ({ stickerMessage: sticker }) => (sticker ? media('sticker', sticker, {}) : undefined),
  reactionMessage: ({ reactionMessage: reaction }) => {
    const targetId = reaction?.key?.id;
    return targetId ? { kind: 'reaction', targetId, emoji: reaction.text ?? '' } : undefined;
  },
  protocolMessage: ({ protocolMessage: protocol }) => {
    const targetId = protocol?.key?.id;
    if (!targetId) return undefined;
    if (protocol.type === REVOKE) return { kind: 'revoke', targetId };
    if (protocol.type !== MESSAGE_EDIT) return undefined;
    // The new text of a text, or the new caption of a media message.
    return {
      kind: 'edit',
      targetId,
      text: messageText(normalizeMessageContent(protocol.editedMessage)) ?? '',
    };
  },
};

/** Decodes what a contact decrypted: the content of its one content field, wrappers taken off. */
export function decodeReceived(message: proto.IMessage | null | undefined): ReceivedContent {
  const inner = normalizeMessageContent(message ?? undefined);
  const type = getContentType(inner);
  if (!inner || !type) return { kind: 'other', type: 'unknown' };
  return DECODERS[type]?.(inner) ?? { kind: 'other', type };
}

/** Whether `content` is a media kind. */
export function isMedia(content: ReceivedContent): content is ReceivedMedia {
  return (MEDIA_KINDS as readonly string[]).includes(content.kind);
}

const MEDIA_KINDS: readonly MediaKind[] = ['image', 'video', 'audio', 'document', 'sticker'];

function media(
  kind: MediaKind,
  field: { mimetype?: string | null; contextInfo?: proto.IContextInfo | null },
  details: Partial<ReceivedMedia>,
): ReceivedMedia {
  return { kind, mimetype: field.mimetype ?? '', ...details, ...context(field.contextInfo) };
}

function cardOf(card: proto.Message.IContactMessage): ReceivedCard {
  return { ...present({ displayName: card.displayName }), vcard: card.vcard ?? '' };
}

function context(info: proto.IContextInfo | null | undefined): ReceivedContext {
  return {
    ...present({ quotedId: info?.stanzaId }),
    ...(info?.isForwarded ? { forwarded: true as const } : {}),
  };
}

/** The fields whose value is a non-empty string (decoded protos hold null or '' for absent ones). */
function present<K extends string>(fields: Record<K, string | null | undefined>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [key, value] of Object.entries(fields) as Array<[K, string | null | undefined]>)
    if (value) out[key] = value;
  return out;
}
