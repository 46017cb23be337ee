/**
 * Statuses a simulated contact posts to linked accounts, and their deletion. WhatsApp sends a status like a group
 * message to the pseudo-chat `status@broadcast`: the contact's sender key for it goes 1:1 to each viewer's
 * companions that lack it, the post once as an `skmsg` (`sendUnderSenderKey`). Texts are an
 * `extendedTextMessage` with its background and font, media go through the contact media path (encrypted, on the
 * media host), a voice status is a ptt audio; a delete is a REVOKE of the status's key.
 */
import { proto } from '@whiskeysockets/baileys';
import { z } from 'zod';
import { type Account, linkedCompanions } from '#tests/wa-sim/accounts/accounts.js';
import { isBlocked } from '#tests/wa-sim/accounts/blocklist.js';
import { STATUS_JID } from '#tests/wa-sim/accounts/contact-statuses.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import { Caption, MediaData, Mimetype, mediaOutgoing, Seconds } from '#tests/wa-sim/media/contact-media.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { conflict, notFound } from '#tests/wa-sim/support/errors.js';
import { unixNow } from '#tests/wa-sim/transport/binary.js';
import { MessageText } from './contact-content.js';
import { type SenderKeySend, sendUnderSenderKey } from './contact-send.js';

/** A status background, as WhatsApp's colour picker gives it. */
const Color = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'a colour is #RRGGBB');

/**
 * The statuses a contact posts, by `type` (`POST /admin/contacts/{number}/status` without its `to`). Strict: a
 * field another type takes (a caption on a text) is refused rather than dropped.
 */
export const STATUS_POSTS = {
  text: z.strictObject({
    type: z.literal('text'),
    text: MessageText,
    backgroundColor: Color.optional(),
    // WhatsApp's status fonts (`ExtendedTextMessage.FontType`) and room for the ones it adds.
    font: z.number().int().min(0).max(10).optional(),
  }),
  image: z.strictObject({
    type: z.literal('image'),
    data: MediaData,
    mimetype: Mimetype.optional(),
    caption: Caption.optional(),
  }),
  video: z.strictObject({
    type: z.literal('video'),
    data: MediaData,
    mimetype: Mimetype.optional(),
    caption: Caption.optional(),
    seconds: Seconds.optional(),
  }),
  voice: z.strictObject({
    type: z.literal('voice'),
    data: MediaData,
    mimetype: Mimetype.optional(),
    seconds: Seconds.optional(),
    backgroundColor: Color.optional(),
  }),
} as const;

/** One status a contact posts. */
export type StatusPost = z.infer<(typeof STATUS_POSTS)[keyof typeof STATUS_POSTS]>;

/** What a post or delete answers: the message's id, how many companions got it (now or queued), and when. */
export interface StatusSend {
  readonly id: string;
  readonly devices: number;
  readonly timestamp: number;
}

/** `contact` posts `post` to the companions of `accounts`. */
export async function contactPostsStatus(
  sim: Simulator,
  contact: Contact,
  accounts: readonly Account[],
  post: StatusPost,
): Promise<StatusSend> {
  const sent = await sendStatus(sim, contact, accounts, await statusMessage(sim, post));
  contact.statuses.post({ id: sent.id, type: post.type, timestamp: sent.timestamp, deleted: false });
  return sent;
}

/** `contact` deletes its status `id` for the companions of `accounts`; 404 when it never posted it. */
export async function contactRevokesStatus(
  sim: Simulator,
  contact: Contact,
  accounts: readonly Account[],
  id: string,
): Promise<StatusSend> {
  const posted = contact.statuses.postedStatus(id);
  if (!posted) throw notFound(`${contact.number} posted no status ${id}`);
  if (posted.deleted) throw conflict(`${contact.number} already deleted status ${id}`);
  const protocolMessage = {
    key: { remoteJid: STATUS_JID, fromMe: true, id },
    type: proto.Message.ProtocolMessage.Type.REVOKE,
  };
  // `edit="7"`: the sender deletes its own message.
  const sent = await sendStatus(sim, contact, accounts, {
    message: { protocolMessage },
    attrs: { type: 'text', edit: '7' },
  });
  posted.deleted = true;
  return sent;
}

/** Sends a status message to every linked companion of `accounts` (each account once). */
async function sendStatus(
  sim: Simulator,
  contact: Contact,
  accounts: readonly Account[],
  status: Omit<SenderKeySend, 'id' | 'timestamp'>,
): Promise<StatusSend> {
  const id = sim.newMessageId();
  const timestamp = unixNow();
  // A user who blocked the contact does not see its statuses.
  const devices = [...new Set(accounts)]
    .filter((account) => !isBlocked(account, contact.lid))
    .flatMap((account) => linkedCompanions(account));
  await sendUnderSenderKey(sim, contact, STATUS_JID, devices, { ...status, id, timestamp });
  return { id, devices: devices.length, timestamp };
}

/** The message of `post` and its stanza `type`; media is encrypted and put on the media host first. */
async function statusMessage(
  sim: Simulator,
  post: StatusPost,
): Promise<Omit<SenderKeySend, 'id' | 'timestamp'>> {
  switch (post.type) {
    case 'text': {
      const { text, font } = post;
      const extendedTextMessage = { text, font, backgroundArgb: argbOf(post.backgroundColor) };
      return { message: { extendedTextMessage }, attrs: { type: 'text' } };
    }
    case 'image':
    case 'video':
      return mediaOutgoing(sim, post);
    case 'voice': {
      const { data, mimetype, seconds } = post;
      const audio = await mediaOutgoing(sim, { type: 'audio', data, mimetype, seconds, ptt: true });
      const audioMessage = { ...audio.message.audioMessage, backgroundArgb: argbOf(post.backgroundColor) };
      return { message: { audioMessage }, attrs: audio.attrs };
    }
  }
}

/** An opaque ARGB colour from `#RRGGBB`, as Baileys' `backgroundColor` option writes it. */
function argbOf(color: string | undefined): number | undefined {
  return color === undefined ? undefined : 0xff000000 + Number.parseInt(color.slice(1), 16);
}
