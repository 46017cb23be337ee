/**
 * Translation between Baileys' message shapes and the engine port's: JIDs to the neutral form (`<number>@c.us`,
 * `<id>@g.us`; never `@s.whatsapp.net` or a `:device` suffix), text extraction, and WhatsApp's numeric delivery
 * states to message statuses.
 */
import {
  isJidBroadcast,
  isJidNewsletter,
  jidDecode,
  proto,
  type WAMessage,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import type { InboundMessage, OutgoingStatus } from '#host/engines/engine-events.js';

/** `15550001111:3@s.whatsapp.net` → `15550001111@c.us`; groups and other servers keep their id. */
export function toNeutralJid(jid: string): string {
  const decoded = jidDecode(jid);
  if (!decoded) return jid;
  if (decoded.server === 's.whatsapp.net' || decoded.server === 'c.us') return `${decoded.user}@c.us`;
  return `${decoded.user}@${decoded.server}`;
}

/** `15550001111@c.us` → `15550001111@s.whatsapp.net`; group ids pass through. */
export function toBaileysJid(chatId: string): string {
  return chatId.endsWith('@c.us') ? `${chatId.slice(0, -'@c.us'.length)}@s.whatsapp.net` : chatId;
}

/** The phone-number form of an address: Baileys 7 may report a LID first and the phone number as its "alt". */
export function preferPhone(jid: string | null | undefined, alt: string | null | undefined): string | null {
  if (!jid) return alt ?? null;
  return jid.endsWith('@lid') && alt ? alt : jid;
}

function textOf(message: proto.IMessage | null | undefined): string | null {
  return message?.conversation ?? message?.extendedTextMessage?.text ?? null;
}

/**
 * A text a contact sent, as the port carries it, or null for everything else an upsert may hold: our own messages
 * (sent here or from the phone), status posts and broadcast lists, newsletter posts, notifications and call stubs
 * (no message content), protocol messages (history-sync notices, key shares) and other non-text content.
 */
export function inboundFromBaileys(message: WAMessage, ownPhone: string): InboundMessage | null {
  const key = message.key;
  if (key.fromMe || !key.id || !message.message) return null;
  const chat = preferPhone(key.remoteJid, key.remoteJidAlt);
  if (!chat || isJidBroadcast(chat) || isJidNewsletter(chat)) return null;
  const body = textOf(message.message);
  if (body === null) return null;
  const chatId = toNeutralJid(chat);
  const isGroup = chatId.endsWith('@g.us');
  const participant = isGroup ? preferPhone(key.participant, key.participantAlt) : null;
  return {
    waMessageId: key.id,
    chatId,
    from: chatId,
    to: `${ownPhone}@c.us`,
    author: participant ? toNeutralJid(participant) : null,
    body,
    type: 'text',
    timestamp: Number(message.messageTimestamp ?? Math.floor(Date.now() / 1000)),
    pushName: message.pushName ?? null,
  };
}

const STATUS = proto.WebMessageInfo.Status;

/** A delivery-state change of one of our own messages, or null when the update is not one. */
export function statusFromBaileys(update: WAMessageUpdate): OutgoingStatus | null {
  return statusOf(update.key, update.update.status);
}

/**
 * The delivery state carried by our own message in an upsert: Baileys folds receipts that arrive within its event
 * buffer window into the upsert of the message itself instead of emitting a separate update.
 */
export function statusFromOwnUpsert(message: WAMessage): OutgoingStatus | null {
  return statusOf(message.key, message.status);
}

function statusOf(key: WAMessage['key'], code: number | null | undefined): OutgoingStatus | null {
  if (!key.fromMe || !key.id || !key.remoteJid || code === undefined || code === null) return null;
  const status =
    code === STATUS.ERROR
      ? 'failed'
      : code === STATUS.SERVER_ACK
        ? 'sent'
        : code === STATUS.DELIVERY_ACK
          ? 'delivered'
          : code === STATUS.READ || code === STATUS.PLAYED
            ? 'read'
            : null;
  if (!status) return null;
  return {
    waMessageId: key.id,
    chatId: toNeutralJid(preferPhone(key.remoteJid, key.remoteJidAlt) ?? key.remoteJid),
    status,
  };
}
