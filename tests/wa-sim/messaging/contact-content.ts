/**
 * What a simulated contact can send, and the `proto.Message` each kind is on the wire: a text, a location, a
 * contact card, a reply, a reaction, an edit or a revoke (delete for everyone); media kinds are validated here too
 * but built by `media/contact-media.ts`. Replies and reactions point at a
 * message of the same chat the contact sent or received; edits and revokes at one it sent. The shapes follow what
 * WhatsApp clients send (whatsmeow's builders, Baileys' own `generateWAMessageContent` for replies).
 */
import { getContentType, normalizeMessageContent, proto } from '@whiskeysockets/baileys';
import { z } from 'zod';
import type { Contact, ReceivedMessage, SentMessage } from '#tests/wa-sim/accounts/contacts.js';
import { MEDIA_CONTENT, type MediaContent } from '#tests/wa-sim/media/contact-media.js';
import { badRequest, notFound } from '#tests/wa-sim/support/errors.js';
import { pnJid } from '#tests/wa-sim/transport/binary.js';

/** The text of a text, reply or edit. */
export const MessageText = z.string().min(1).max(65_536);

const MessageId = z.string().min(1).max(128);

/** One message a contact sends, by `type` (the `content` of `POST /admin/contacts/{number}/messages`). */
export const ContactContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: MessageText }),
  z.object({
    type: z.literal('location'),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().min(1).max(1_000).optional(),
    address: z.string().min(1).max(1_000).optional(),
  }),
  z.object({
    type: z.literal('contact'),
    displayName: z.string().min(1).max(256),
    vcard: z
      .string()
      .max(65_536)
      .regex(/^BEGIN:VCARD\r?\n[\s\S]*END:VCARD\s*$/, 'a vCard runs from BEGIN:VCARD to END:VCARD'),
  }),
  z.object({ type: z.literal('reply'), quotedId: MessageId, text: MessageText }),
  // An empty emoji takes the contact's reaction back, as WhatsApp does.
  z.object({ type: z.literal('reaction'), messageId: MessageId, emoji: z.string().max(32) }),
  z.object({ type: z.literal('edit'), messageId: MessageId, text: MessageText }),
  z.object({ type: z.literal('revoke'), messageId: MessageId }),
  ...MEDIA_CONTENT,
]);
/** One message a contact sends. */
export type ContactContent = z.infer<typeof ContactContent>;
/** A message a contact sends that carries no media. */
export type PlainContent = Exclude<ContactContent, MediaContent>;

/** How a contact's message is recorded in `contact.sent`, besides its id, chat, time and status. */
export type SentDetails = Pick<SentMessage, 'kind' | 'text' | 'target' | 'emoji'>;

/** A contact's message ready to encrypt: the proto, its record, its stanza attributes, and its effect. */
export interface ContactOutgoing {
  readonly message: proto.IMessage;
  readonly record: SentDetails;
  /** The `<message>` attributes WhatsApp sets for the kind (`type`, `edit`). */
  readonly attrs: Readonly<Record<string, string>>;
  /** What the message changes in the contact's record of an earlier one; run once it went out. */
  readonly settle?: () => void;
}

/** A message a reply, reaction, edit or revoke points at. */
interface Target {
  readonly id: string;
  /** The contact sent it (the key's `fromMe`, from the contact's side). */
  readonly fromMe: boolean;
  /** Who sent it: the contact's or the account's phone-number jid. */
  readonly sender: string;
  readonly content: proto.IMessage;
  readonly sent?: SentMessage;
  readonly received?: ReceivedMessage;
}

/** Builds what `contact` sends to the chat `chat` (an account's phone-number jid or a group jid) for `content`. */
export function contactOutgoing(contact: Contact, chat: string, content: PlainContent): ContactOutgoing {
  switch (content.type) {
    case 'text':
      return plain({ conversation: content.text }, { kind: 'text', text: content.text }, { type: 'text' });
    case 'location': {
      const { latitude, longitude, name, address } = content;
      const locationMessage = { degreesLatitude: latitude, degreesLongitude: longitude, name, address };
      return plain({ locationMessage }, { kind: 'location' }, { type: 'media' });
    }
    case 'contact': {
      const contactMessage = { displayName: content.displayName, vcard: content.vcard };
      return plain({ contactMessage }, { kind: 'contact' }, { type: 'media' });
    }
    case 'reply':
      return reply(contact, chat, content.quotedId, content.text);
    case 'reaction':
      return reaction(contact, chat, content.messageId, content.emoji);
    case 'edit':
      return edit(contact, chat, content.messageId, content.text);
    case 'revoke':
      return revoke(contact, chat, content.messageId);
  }
}

/** A message that changes no earlier one. */
function plain(message: proto.IMessage, record: SentDetails, attrs: Record<string, string>): ContactOutgoing {
  return { message, record, attrs };
}

function reply(contact: Contact, chat: string, quotedId: string, text: string): ContactOutgoing {
  const target = shownTarget(contact, chat, quotedId, 'reply to');
  const contextInfo = {
    stanzaId: target.id,
    participant: target.sender,
    quotedMessage: quoted(target.content),
  };
  return plain(
    { extendedTextMessage: { text, contextInfo } },
    { kind: 'reply', text, target: target.id },
    { type: 'text' },
  );
}

function reaction(contact: Contact, chat: string, messageId: string, emoji: string): ContactOutgoing {
  const target = shownTarget(contact, chat, messageId, 'react to');
  // In a group the key names the author of a message the reacting user did not send (whatsmeow BuildMessageKey).
  const participant = chat.endsWith('@g.us') && !target.fromMe ? target.sender : undefined;
  const key = { remoteJid: chat, fromMe: target.fromMe, id: target.id, participant };
  return plain(
    { reactionMessage: { key, text: emoji, senderTimestampMs: Date.now() } },
    { kind: 'reaction', target: target.id, emoji },
    { type: 'reaction' },
  );
}

function edit(contact: Contact, chat: string, messageId: string, text: string): ContactOutgoing {
  const sent = ownTarget(contact, chat, messageId, 'edit');
  if (sent.kind !== 'text' && sent.kind !== 'reply')
    throw badRequest(`${messageId} is a ${sent.kind}, not a text`);
  const protocolMessage = {
    key: { remoteJid: chat, fromMe: true, id: messageId },
    type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
    editedMessage: { conversation: text },
    timestampMs: Date.now(),
  };
  // WhatsApp wraps an edit in a FutureProofMessage; Baileys unwraps it (normalizeMessageContent) to find the edit.
  return {
    message: { editedMessage: { message: { protocolMessage } } },
    record: { kind: 'edit', text, target: messageId },
    attrs: { type: 'text', edit: '1' },
    settle: () => {
      sent.editedText = text;
      contact.replaceContent(messageId, { conversation: text });
    },
  };
}

function revoke(contact: Contact, chat: string, messageId: string): ContactOutgoing {
  const sent = ownTarget(contact, chat, messageId, 'revoke');
  const protocolMessage = {
    key: { remoteJid: chat, fromMe: true, id: messageId },
    type: proto.Message.ProtocolMessage.Type.REVOKE,
  };
  return {
    message: { protocolMessage },
    record: { kind: 'revoke', target: messageId },
    // `edit="7"`: the sender deletes its own message.
    attrs: { type: 'text', edit: '7' },
    settle: () => {
      sent.revoked = true;
    },
  };
}

/** The message `id` of `chat` that the contact sent or received; 404 when it has none. */
function findTarget(contact: Contact, chat: string, id: string): Target {
  const sent = contact.sent.get(id);
  const content = contact.contentOf(id);
  if (sent?.to === chat && content) return { id, fromMe: true, sender: pnJid(contact.number), content, sent };
  const received = contact.findReceived(id);
  if (received && (received.group ?? received.from) === chat && content)
    return { id, fromMe: false, sender: received.from, content, received };
  throw notFound(`${contact.number} has no message ${id} in ${chat}`);
}

/** A message shown in the chat (not a reaction, edit or revoke, nor revoked) that the contact can `verb`. */
function shownTarget(contact: Contact, chat: string, id: string, verb: string): Target {
  const target = findTarget(contact, chat, id);
  if (target.sent?.revoked || target.received?.revoked)
    throw badRequest(`cannot ${verb} ${id}: it was revoked`);
  const inner = normalizeMessageContent(target.content);
  if (!getContentType(inner) || inner?.reactionMessage || inner?.protocolMessage)
    throw badRequest(`cannot ${verb} ${id}: it is not a message shown in the chat`);
  return target;
}

/** A message the contact itself sent, shown in the chat, that it edits or revokes. */
function ownTarget(contact: Contact, chat: string, id: string, verb: string): SentMessage {
  const { sent } = shownTarget(contact, chat, id, verb);
  if (!sent) throw badRequest(`a contact can ${verb} only its own messages; ${id} was sent to it`);
  return sent;
}

/** The quoted copy of a message, as Baileys builds it: its one content field, without its own context. */
function quoted(content: proto.IMessage): proto.IMessage {
  const inner = normalizeMessageContent(content);
  const type = getContentType(inner);
  const body = type ? inner?.[type] : undefined;
  if (!type || typeof body !== 'object' || body === null) return type ? { [type]: body } : {};
  const { contextInfo: _context, ...rest } = body as Record<string, unknown>;
  return { [type]: rest };
}
