/**
 * Status updates a companion posts. Baileys' `sendMessage('status@broadcast', …, {statusJidList})` names every
 * recipient device in `<participants>`, each with the sender key's distribution in its 1:1 copy, and carries the
 * post once as an `skmsg`: the recipients are the members of this one broadcast. Recipient contacts take the key
 * under `status@broadcast`, read the post and keep it as a status, not a chat message; a REVOKE from the poster
 * marks it deleted. Other linked accounts' companions get it forwarded as a group message would be.
 */
import { normalizeMessageContent, proto } from '@whiskeysockets/baileys';
import { isBlocked } from '#tests/wa-sim/accounts/blocklist.js';
import {
  type ReceivedStatus,
  STATUS_JID,
  type StatusMedia,
} from '#tests/wa-sim/accounts/contact-statuses.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import { mediaRefOf, openedFacts } from '#tests/wa-sim/media/received-media.js';
import type { BinaryNode } from '#tests/wa-sim/transport/binary.js';
import {
  contactTakesKey,
  deliverCopies,
  noteDecrypted,
  type Outgoing,
  readSenderKeyMessage,
} from './client-outgoing.js';

/** What a status says, before the envelope's id, poster and time are added. */
type StatusBody = Omit<ReceivedStatus, 'id' | 'from' | 'timestamp' | 'media' | 'deleted'>;

/** Fans a companion's status post (`to="status@broadcast"`) out to the devices its `<participants>` name. */
export async function clientPostsStatus(
  out: Outgoing,
  targets: readonly BinaryNode[],
  skmsg: BinaryNode | undefined,
): Promise<void> {
  const viewers = new Set<Contact>();
  await deliverCopies(out, targets, {
    chat: STATUS_JID,
    skmsg,
    contactGets: async (contact, enc) => {
      viewers.add(contact);
      await contactTakesKey(out, contact, STATUS_JID, enc);
    },
    // A user who blocked the poster does not see its statuses.
    refuses: (device) => isBlocked(device.account, out.sender.account.lid),
  });
  if (!(skmsg?.content instanceof Uint8Array)) return;
  for (const contact of viewers) {
    const message = await readSenderKeyMessage(out, contact, STATUS_JID, skmsg.content);
    if (message) await contactSeesStatus(out, contact, message);
  }
}

/** The contact keeps the status it read, opening its media as its phone would, or applies the poster's delete. */
async function contactSeesStatus(out: Outgoing, contact: Contact, message: proto.Message): Promise<void> {
  noteDecrypted(out.sim);
  const poster = out.sender.account.phone;
  const inner = normalizeMessageContent(message);
  const protocol = inner?.protocolMessage;
  if (protocol) {
    const { type, key } = protocol;
    if (type === proto.Message.ProtocolMessage.Type.REVOKE && key?.remoteJid === STATUS_JID && key.id)
      contact.statuses.deleteReceived(poster, key.id);
    return;
  }
  const body = inner ? statusBody(inner) : undefined;
  if (!body) {
    out.sim.log.warn(`status ${out.id}: ${contact.number} got a kind of status it does not show`);
    return;
  }
  const media = await statusMedia(out, message);
  contact.statuses.keep({
    id: out.id,
    from: poster,
    ...body,
    media,
    timestamp: out.timestamp,
    deleted: false,
  });
}

/** A text, image, video or voice status's fields; undefined for any other message. */
function statusBody(message: proto.IMessage): StatusBody | undefined {
  const none = { text: null, caption: null, backgroundColor: null, font: null };
  if (message.conversation) return { ...none, type: 'text', text: message.conversation };
  const { extendedTextMessage: text, imageMessage, videoMessage, audioMessage } = message;
  if (text) {
    const { backgroundArgb, font } = text;
    return {
      ...none,
      type: 'text',
      text: text.text ?? '',
      backgroundColor: colorOf(backgroundArgb),
      font: font ?? null,
    };
  }
  if (imageMessage) return { ...none, type: 'image', caption: imageMessage.caption ?? null };
  if (videoMessage) return { ...none, type: 'video', caption: videoMessage.caption ?? null };
  if (audioMessage) return { ...none, type: 'voice', backgroundColor: colorOf(audioMessage.backgroundArgb) };
  return undefined;
}

/** `#RRGGBB` from an ARGB colour (the alpha dropped), as the admin API takes it. */
function colorOf(argb: number | null | undefined): string | null {
  if (argb === null || argb === undefined) return null;
  return `#${(argb % 0x1000000).toString(16).padStart(6, '0').toUpperCase()}`;
}

/** The status's media opened: its plaintext's hash and size, or why not (logged); null when it has none. */
async function statusMedia(out: Outgoing, message: proto.Message): Promise<StatusMedia | null> {
  const ref = mediaRefOf(message);
  return ref ? { mimetype: ref.mimetype, ...(await openedFacts(out.sim, out.id, ref)) } : null;
}
