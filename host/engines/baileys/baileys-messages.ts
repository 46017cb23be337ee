/**
 * Translation between Baileys' message shapes and the engine port's: contacts' messages to inbound messages in
 * neutral ids (content in baileys-inbound-content.ts, addresses in baileys-jids.ts), and WhatsApp's numeric
 * delivery states to message statuses.
 */
import {
  isJidBroadcast,
  isJidNewsletter,
  proto,
  type WAMessage,
  type WAMessageUpdate,
} from '@whiskeysockets/baileys';
import type { InboundMessage, OutgoingStatus } from '#host/engines/engine-events.js';
import { inboundContent } from './baileys-inbound-content.js';
import { preferPhone, toNeutralJid } from './baileys-jids.js';

/**
 * A message a contact sent, as the port carries it (the kinds baileys-inbound-content.ts reads), or null for
 * everything else an upsert may hold: our own messages (sent here or from the phone), status posts and broadcast
 * lists, newsletter posts, notifications and call stubs (no message content), and protocol messages (history-sync
 * notices, key shares; reactions, edits and revokes are changes: baileys-inbound-changes.ts).
 */
export function inboundFromBaileys(message: WAMessage, ownPhone: string): InboundMessage | null {
  const key = message.key;
  if (key.fromMe || !key.id || !message.message) return null;
  const chat = preferPhone(key.remoteJid, key.remoteJidAlt);
  if (!chat || isJidBroadcast(chat) || isJidNewsletter(chat)) return null;
  const content = inboundContent(message.message);
  if (!content) return null;
  const chatId = toNeutralJid(chat);
  const isGroup = chatId.endsWith('@g.us');
  const participant = isGroup ? preferPhone(key.participant, key.participantAlt) : null;
  return {
    waMessageId: key.id,
    chatId,
    from: chatId,
    to: `${ownPhone}@c.us`,
    author: participant ? toNeutralJid(participant) : null,
    body: content.body,
    type: content.type,
    timestamp: Number(message.messageTimestamp ?? Math.floor(Date.now() / 1000)),
    pushName: message.pushName ?? null,
    ...(content.metadata ? { metadata: content.metadata } : {}),
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
