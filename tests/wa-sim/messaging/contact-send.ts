/**
 * Messages from simulated contacts to linked accounts, of any kind `contact-content.ts` (media:
 * `media/contact-media.ts`) builds: 1:1 (`pkmsg` until the companion answers, then `msg`) and to groups (the sender
 * key's distribution message in a 1:1 envelope for companions that lack it, plus the `skmsg`; statuses go the same
 * way, `contact-status.ts`). Each companion of the account gets its own copy; offline ones get it at their next
 * login.
 */
import { type Account, type CompanionDevice, linkedCompanions } from '#tests/wa-sim/accounts/accounts.js';
import { isBlocked } from '#tests/wa-sim/accounts/blocklist.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import { companionKey, contactAddress } from '#tests/wa-sim/accounts/directory.js';
import { type Group, isAdmin } from '#tests/wa-sim/groups/groups.js';
import { isMediaContent, mediaOutgoing } from '#tests/wa-sim/media/contact-media.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { badRequest, forbidden } from '#tests/wa-sim/support/errors.js';
import {
  type BinaryNode,
  encodeMessage,
  lidJid,
  makeNode,
  pnJid,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import { noteContactMessage } from './chat-log.js';
import { type ContactContent, type ContactOutgoing, contactOutgoing } from './contact-content.js';
import { directAddressing } from './lid-addressing.js';
import { sealForCompanion } from './seal.js';

/** Result of a contact's send: the message id and how many companions got it now or queued. */
export interface ContactSend {
  readonly id: string;
  readonly devices: number;
}

/** `contact` sends `content` to the account `account`. */
export async function contactSend(
  sim: Simulator,
  contact: Contact,
  account: Account,
  content: ContactContent,
): Promise<ContactSend> {
  const to = pnJid(account.phone);
  const outgoing = await outgoingOf(sim, contact, to, content);
  const id = sim.newMessageId();
  const timestamp = unixNow();
  const padded = encodeMessage(outgoing.message);
  // WhatsApp drops what a user the account blocked sends: the sender's copy stays at one tick.
  const devices = isBlocked(account, contact.lid) ? [] : linkedCompanions(account);
  const addressing = directAddressing(contact.config.addressing, contact.number, contact.lid);
  for (const device of devices) {
    const enc = await sealForCompanion(sim, contact.device, device, padded);
    sim.deliver(device, envelope(contact, addressing, outgoing, id, timestamp, [enc]));
  }
  if (devices.length > 0)
    noteContactMessage(sim, contact, { account }, { id, kind: content.type, timestamp });
  record(contact, outgoing, { id, to, timestamp });
  return { id, devices: devices.length };
}

/** `contact` sends `content` to `group`, reaching every member account's companions. */
export async function contactSendToGroup(
  sim: Simulator,
  contact: Contact,
  group: Group,
  content: ContactContent,
): Promise<ContactSend> {
  if (!group.members.has(contact.number))
    throw badRequest(`${contact.number} is not a member of ${group.jid}`);
  // An announcement group takes messages from its admins only.
  if (group.announce && !isAdmin(group, contact.number))
    throw forbidden(`${group.jid} is announcement-only and ${contact.number} is not an admin`);
  const outgoing = await outgoingOf(sim, contact, group.jid, content);
  const id = sim.newMessageId();
  const timestamp = unixNow();
  const devices = [...group.members.keys()].flatMap((phone) => {
    const account = sim.accounts.get(phone);
    return account ? linkedCompanions(account) : [];
  });
  await sendUnderSenderKey(sim, contact, group.jid, devices, { ...outgoing, id, timestamp });
  noteContactMessage(sim, contact, { group }, { id, kind: content.type, timestamp });
  record(contact, outgoing, { id, to: group.jid, group: group.jid, timestamp });
  return { id, devices: devices.length };
}

/** A message ready to go out under a sender key: its content, stanza attributes, id and time. */
export interface SenderKeySend extends Pick<ContactOutgoing, 'message' | 'attrs'> {
  readonly id: string;
  readonly timestamp: number;
}

/**
 * Sends `send` from `contact` to `devices` under its sender key for `chat` (a group jid, or `status@broadcast`):
 * the key's distribution sealed 1:1 for each companion that lacks it, then the `skmsg`, from `chat` with the
 * contact as participant.
 */
export async function sendUnderSenderKey(
  sim: Simulator,
  contact: Contact,
  chat: string,
  devices: readonly CompanionDevice[],
  send: SenderKeySend,
): Promise<void> {
  const { ciphertext, distribution } = await contact.device.encryptGroup(
    chat,
    contactAddress(contact),
    encodeMessage(send.message),
  );
  const skdm = encodeMessage({
    senderKeyDistributionMessage: { groupId: chat, axolotlSenderKeyDistributionMessage: distribution },
  });
  const holders = contact.senderKeyHolders.get(chat) ?? new Set<string>();
  contact.senderKeyHolders.set(chat, holders);
  const addressing = { from: chat, participant: pnJid(contact.number), participant_lid: lidJid(contact.lid) };
  for (const device of devices) {
    const encs: BinaryNode[] = [];
    if (!holders.has(companionKey(device))) {
      encs.push(await sealForCompanion(sim, contact.device, device, skdm));
      holders.add(companionKey(device));
    }
    encs.push(makeNode('enc', { v: '2', type: 'skmsg' }, ciphertext));
    sim.deliver(device, envelope(contact, addressing, send, send.id, send.timestamp, encs));
  }
}

/** What `contact` sends to `chat` for `content`; media is encrypted and put on the media host first. */
async function outgoingOf(
  sim: Simulator,
  contact: Contact,
  chat: string,
  content: ContactContent,
): Promise<ContactOutgoing> {
  return isMediaContent(content)
    ? await mediaOutgoing(sim, content)
    : contactOutgoing(contact, chat, content);
}

/** Records what went out in `contact.sent` and applies its effect on an earlier message (an edit, a revoke). */
function record(
  contact: Contact,
  outgoing: ContactOutgoing,
  sent: { id: string; to: string; group?: string; timestamp: number },
): void {
  contact.recordSent({ ...sent, ...outgoing.record, status: 'sent' }, outgoing.message);
  outgoing.settle?.();
}

function envelope(
  contact: Contact,
  addressing: Record<string, string>,
  outgoing: Pick<ContactOutgoing, 'attrs'>,
  id: string,
  timestamp: number,
  encs: BinaryNode[],
): BinaryNode {
  return makeNode(
    'message',
    { ...addressing, id, t: String(timestamp), ...outgoing.attrs, notify: contact.name },
    encs,
  );
}
