/**
 * Outgoing content (shared/domain/outgoing-content.ts) in the shapes Baileys' sendMessage takes: the content, and
 * the quoted message of a reply as a minimal WAMessage (its key and a text copy, which is what the quote shows).
 * A forward is sent through Baileys' own forward path (`{forward}`), which marks it as WhatsApp does.
 */
import type { AnyMessageContent, proto, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import {
  isMediaContent,
  type MediaContent,
  type MessageRef,
  type OutgoingContent,
  type QuotedRef,
} from '#shared/domain/outgoing-content.js';
import { toBaileysJid } from './baileys-jids.js';

export interface BaileysOutgoing {
  content: AnyMessageContent;
  /** The message a reply quotes (sendMessage's `quoted` option). */
  quoted?: WAMessage;
}

/** The Baileys form of sending `content` to `chatId` (`attachment`: a media kind's file). */
export function toBaileysOutgoing(
  chatId: string,
  content: OutgoingContent,
  attachment?: Uint8Array,
): BaileysOutgoing {
  const jid = toBaileysJid(chatId);
  if (isMediaContent(content)) {
    if (!attachment) throw new Error(`The ${content.type} has no file to send`);
    const quoted = content.quoted ? quotedMessage(jid, content.quoted) : undefined;
    return { content: mediaContent(content, Buffer.from(attachment)), ...(quoted ? { quoted } : {}) };
  }
  if (content.type !== 'reaction' && content.type !== 'edit' && content.type !== 'revoke') {
    if (content.forwarded) {
      // A key that is not ours makes Baileys count the forward (forwardingScore 1, isForwarded).
      const forward: WAMessage = {
        key: { remoteJid: jid, fromMe: false, id: 'forward' },
        message: protoOf(content),
      };
      return { content: { forward, force: true } };
    }
    const quoted = content.quoted ? quotedMessage(jid, content.quoted) : undefined;
    return { content: plainContent(content), ...(quoted ? { quoted } : {}) };
  }
  switch (content.type) {
    case 'reaction':
      return { content: { react: { text: content.emoji, key: keyOf(jid, content.target) } } };
    case 'edit':
      return {
        content: {
          text: content.text,
          edit: keyOf(jid, content.target),
          ...(content.mentions ? { mentions: content.mentions.map(toBaileysJid) } : {}),
        },
      };
    case 'revoke':
      return { content: { delete: keyOf(jid, content.target) } };
  }
}

type ShownContent = Exclude<OutgoingContent, { type: 'reaction' | 'edit' | 'revoke' } | MediaContent>;

/**
 * A media kind as Baileys uploads and sends it: its bytes, type and caption. A forwarded file is uploaded again
 * and marked as WhatsApp marks a forward (Baileys' own forward path needs the original upload's keys).
 */
function mediaContent(content: MediaContent, bytes: Buffer): AnyMessageContent {
  const { mimetype } = content.file;
  const context = content.forwarded ? { contextInfo: { forwardingScore: 1, isForwarded: true } } : {};
  const mentions =
    'mentions' in content && content.mentions ? { mentions: content.mentions.map(toBaileysJid) } : {};
  const caption = 'caption' in content && content.caption ? { caption: content.caption } : {};
  switch (content.type) {
    case 'image':
      return { image: bytes, mimetype, ...caption, ...mentions, ...context };
    case 'video':
      return { video: bytes, mimetype, ...caption, ...mentions, ...context };
    case 'audio':
      return { audio: bytes, mimetype, ptt: content.ptt, ...context };
    case 'document':
      return {
        document: bytes,
        mimetype,
        fileName: content.file.fileName ?? 'file',
        ...caption,
        ...mentions,
        ...context,
      };
    case 'sticker':
      return { sticker: bytes, mimetype, ...context };
  }
}

function plainContent(content: ShownContent): AnyMessageContent {
  switch (content.type) {
    case 'text':
      return {
        text: content.text,
        ...(content.mentions ? { mentions: content.mentions.map(toBaileysJid) } : {}),
      };
    case 'location':
      return {
        location: {
          degreesLatitude: content.latitude,
          degreesLongitude: content.longitude,
          ...(content.description ? { name: content.description } : {}),
          ...(content.address ? { address: content.address } : {}),
        },
      };
    case 'contact':
      return { contacts: { displayName: content.displayName, contacts: cardsOf(content) } };
    default:
      return unsendable(content);
  }
}

/** The proto of shown content, as a forward copies it. */
function protoOf(content: ShownContent): proto.IMessage {
  switch (content.type) {
    case 'text':
      return { conversation: content.text };
    case 'location': {
      const location = plainContent(content) as { location: proto.Message.ILocationMessage };
      return { locationMessage: location.location };
    }
    case 'contact': {
      const [card, ...more] = cardsOf(content);
      return card && more.length === 0
        ? { contactMessage: card }
        : { contactsArrayMessage: { displayName: content.displayName, contacts: cardsOf(content) } };
    }
    default:
      return unsendable(content);
  }
}

/** The cards of a contact message, each named (Baileys sends a single card as it is, without the list's name). */
function cardsOf(content: Extract<ShownContent, { type: 'contact' }>): proto.Message.IContactMessage[] {
  return content.vcards.map((vcard) => ({ displayName: content.displayName, vcard }));
}

function keyOf(jid: string, ref: MessageRef): WAMessageKey {
  return {
    remoteJid: jid,
    fromMe: ref.fromMe,
    id: ref.id,
    ...(ref.participant ? { participant: toBaileysJid(ref.participant) } : {}),
  };
}

function quotedMessage(jid: string, quoted: QuotedRef): WAMessage {
  return { key: keyOf(jid, quoted), message: { conversation: quoted.body ?? '' } };
}

/** Compile-time exhaustiveness: a new content kind fails to build here until the engine can send it. */
function unsendable(content: never): never {
  throw new Error(`The Baileys engine cannot send ${JSON.stringify(content)}`);
}
