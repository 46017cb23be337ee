/**
 * A contact's status update as Baileys receives it: a message in `status@broadcast` whose participant is the
 * poster, carrying a text (an extendedTextMessage with its colour and typeface), a picture, a video or a voice note;
 * or the poster's revoke of one. Anything else posted there (reactions to statuses, other kinds) is not a status.
 */
import { isJidStatusBroadcast, proto, type WAMessage } from '@whiskeysockets/baileys';
import type { InboundStatus } from '#host/engines/engine-events.js';
import { StatusType } from '#shared/domain/status-update.js';
import { inboundContent } from './baileys-inbound-content.js';
import { preferPhone, toNeutralJid } from './baileys-jids.js';

/** The status a message posts or deletes; null when it is not a contact's status. */
export function inboundStatusOf(message: WAMessage): InboundStatus | null {
  const { key } = message;
  if (!isJidStatusBroadcast(key.remoteJid ?? '') || key.fromMe || !key.id || !message.message) return null;
  // A broadcast's sender is the participant; Baileys gives its other address as the chat's "alt".
  const poster = preferPhone(key.participant, key.participantAlt ?? key.remoteJidAlt);
  if (!poster) return null;
  const contactId = toNeutralJid(poster);
  const revoked = message.message.protocolMessage;
  if (revoked) {
    const target = revoked.key?.id;
    const isRevoke = revoked.type === proto.Message.ProtocolMessage.Type.REVOKE;
    return isRevoke && target ? { kind: 'deleted', statusId: target, contactId } : null;
  }
  const content = inboundContent(message.message);
  const type = StatusType.safeParse(content?.type);
  if (!content || !type.success) return null;
  const style = message.message.extendedTextMessage ?? message.message.audioMessage;
  const extended = message.message.extendedTextMessage;
  return {
    kind: 'posted',
    statusId: key.id,
    contactId,
    pushName: message.pushName ?? null,
    type: type.data,
    text: type.data === 'text' ? content.body : null,
    caption: type.data === 'image' || type.data === 'video' ? content.body : null,
    backgroundColor: colourOf(style?.backgroundArgb),
    font: typeof extended?.font === 'number' ? extended.font : null,
    timestamp: Number(message.messageTimestamp ?? Math.floor(Date.now() / 1000)),
    media: content.metadata?.media ?? null,
  };
}

/** `#RRGGBB` of an ARGB colour (WhatsApp's backgroundArgb); the alpha is dropped. */
function colourOf(argb: number | null | undefined): string | null {
  if (typeof argb !== 'number') return null;
  return `#${(argb & 0xffffff).toString(16).padStart(6, '0').toUpperCase()}`;
}
