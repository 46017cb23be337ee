/**
 * A client's outgoing `<message>`: the server acks it, then fans each per-device `<to>` out. Simulated devices
 * (contacts, phones) decrypt their copy — contacts keep it and answer with receipts; companions of other linked
 * accounts get it forwarded (or queued while offline). Group messages add the sender-key `skmsg`, which every
 * member device decrypts with the sender key distributed in its `<to>` copy. Status posts (`status@broadcast`)
 * go the same way to the devices they name (`statuses.ts`).
 */
import type { proto } from '@whiskeysockets/baileys';
import type { ClientConnection, CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import { linkedCompanions } from '#tests/wa-sim/accounts/accounts.js';
import { isBlocked } from '#tests/wa-sim/accounts/blocklist.js';
import { STATUS_JID } from '#tests/wa-sim/accounts/contact-statuses.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import type { Group } from '#tests/wa-sim/groups/groups.js';
import { mediaRefOf, withOpenedMedia } from '#tests/wa-sim/media/received-media.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  children,
  decodeMessage,
  makeNode,
  messageKind,
  messageText,
  parseJid,
  pnJid,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import { noteClientMessage } from './chat-log.js';
import {
  contactTakesKey,
  decryptFrom,
  deliverCopies,
  forward,
  noteDecrypted,
  type Outgoing,
  readSenderKeyMessage,
} from './client-outgoing.js';
import { autoReceipts } from './receipts.js';
import { decodeReceived } from './received-content.js';
import { clientPostsStatus } from './statuses.js';

/** Handles one outgoing message stanza from a logged-in companion. */
export async function handleClientMessage(
  sim: Simulator,
  connection: ClientConnection,
  node: BinaryNode,
): Promise<void> {
  const sender = connection.device;
  const { id, to } = node.attrs;
  if (!sender || !id || !to) return;
  sim.stats.messagesFromClients++;
  const group = to.endsWith('@g.us') ? sim.groups.get(to) : undefined;
  const isStatus = to === STATUS_JID;
  const isPeer = node.attrs.category === 'peer';
  const startsChat = !group && !isStatus && !isPeer && parseJid(to)?.user !== sender.account.phone;
  if (sender.account.restriction && startsChat) {
    // 463: the account may not start chats; clients treat it as a restriction and do not retry.
    connection.send(makeNode('ack', { class: 'message', id, from: to, t: String(unixNow()), error: '463' }));
    return;
  }
  connection.send(makeNode('ack', { class: 'message', id, from: to, t: String(unixNow()) }));
  const out: Outgoing = { sim, sender, node, id, to, timestamp: Number(node.attrs.t ?? unixNow()) };
  const targets = children(child(node, 'participants'), 'to');
  const skmsg = children(node, 'enc').find((enc) => enc.attrs.type === 'skmsg');
  if (isStatus) {
    await clientPostsStatus(out, targets, skmsg);
    return;
  }
  noteClientMessage(sim, sender, node, group, out.timestamp);
  const delivered = await deliverCopies(out, targets, {
    chat: group?.jid,
    skmsg,
    contactGets: (contact, enc) => contactReceives(out, contact, enc, group),
    // A 1:1 message to an account that blocked the sender's account is not delivered (groups still are).
    refuses: (device) => !group && isBlocked(device.account, sender.account.lid),
  });
  if (group && skmsg) await fanOutSenderKeyMessage(out, group, skmsg, delivered);
}

async function contactReceives(
  out: Outgoing,
  contact: Contact,
  enc: BinaryNode,
  group: Group | undefined,
): Promise<void> {
  // A group's 1:1 copy only carries the sender key; the message itself is the skmsg.
  if (group) {
    await contactTakesKey(out, contact, group.jid, enc);
    return;
  }
  const plaintext = await decryptFrom(out, contact.device, enc);
  if (plaintext) await contactKeeps(out, contact, decodeMessage(plaintext), undefined);
}

/**
 * The contact records what it decrypted (1:1 or in `group`), opening its media as a phone would, applies it, and
 * answers receipts.
 */
async function contactKeeps(
  out: Outgoing,
  contact: Contact,
  message: proto.Message,
  group: Group | undefined,
): Promise<void> {
  noteDecrypted(out.sim);
  const media = mediaRefOf(message);
  const content = await withOpenedMedia(out.sim, out.id, decodeReceived(message), media);
  contact.remember(
    {
      id: out.id,
      from: pnJid(out.sender.account.phone),
      ...(group ? { group: group.jid } : {}),
      type: messageKind(message),
      text: messageText(message),
      timestamp: out.timestamp,
      content,
    },
    message,
    media,
  );
  autoReceipts(out.sim, contact, out.sender.account, out.id);
}

async function fanOutSenderKeyMessage(
  out: Outgoing,
  group: Group,
  skmsg: BinaryNode,
  delivered: Set<CompanionDevice>,
): Promise<void> {
  if (!(skmsg.content instanceof Uint8Array)) return;
  for (const phone of group.members.keys()) {
    const contact = out.sim.contacts.get(phone);
    if (contact) {
      const message = await readSenderKeyMessage(out, contact, group.jid, skmsg.content);
      if (message) await contactKeeps(out, contact, message, group);
      continue;
    }
    const account = out.sim.accounts.get(phone);
    if (!account) continue;
    for (const device of linkedCompanions(account)) {
      // Members that already hold the sender key get the skmsg alone.
      if (device !== out.sender && !delivered.has(device)) forward(out, device, group.jid, [skmsg]);
    }
  }
}
