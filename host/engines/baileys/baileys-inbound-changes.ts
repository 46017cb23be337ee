/**
 * Changes a contact makes to a message of a chat, as Baileys decrypts them: a reaction (`reactionMessage`), an edit
 * (a `protocolMessage` of type MESSAGE_EDIT, possibly in an `editedMessage` wrapper) and a delete for everyone (type
 * REVOKE). Read from the raw message, before Baileys folds them into its own events, so they are stored before the
 * receipt goes out like any message.
 */
import { normalizeMessageContent, proto, type WAMessage } from '@whiskeysockets/baileys';
import type { InboundChange } from '#host/engines/engine-events.js';
import { inboundContent } from './baileys-inbound-content.js';
import { preferPhone, toNeutralJid } from './baileys-jids.js';

const PROTOCOL = proto.Message.ProtocolMessage.Type;

/** The change a contact's message carries, or null when it carries none (or comes from this account). */
export function changeFromBaileys(message: WAMessage): InboundChange | null {
  const key = message.key;
  if (key.fromMe || !message.message) return null;
  const chat = preferPhone(key.remoteJid, key.remoteJidAlt);
  if (!chat) return null;
  const chatId = toNeutralJid(chat);
  const sender = chatId.endsWith('@g.us') ? preferPhone(key.participant, key.participantAlt) : chat;
  if (!sender) return null;
  const base = {
    chatId,
    senderId: toNeutralJid(sender),
    timestamp: Number(message.messageTimestamp ?? Math.floor(Date.now() / 1000)),
  };
  const content = normalizeMessageContent(message.message);
  const reaction = content?.reactionMessage;
  if (reaction?.key?.id) {
    const at = Number(reaction.senderTimestampMs ?? 0);
    return {
      ...base,
      ...(at > 0 ? { timestamp: Math.floor(at / 1000) } : {}),
      targetId: reaction.key.id,
      change: { kind: 'reaction', emoji: reaction.text ?? '' },
    };
  }
  const protocol = content?.protocolMessage;
  const targetId = protocol?.key?.id;
  if (!protocol || !targetId) return null;
  if (protocol.type === PROTOCOL.REVOKE) return { ...base, targetId, change: { kind: 'revoke' } };
  if (protocol.type === PROTOCOL.MESSAGE_EDIT) {
    const body = inboundContent(protocol.editedMessage)?.body;
    const at = Number(protocol.timestampMs ?? 0);
    if (typeof body !== 'string') return null;
    return {
      ...base,
      ...(at > 0 ? { timestamp: Math.floor(at / 1000) } : {}),
      targetId,
      change: { kind: 'edit', body },
    };
  }
  return null;
}
