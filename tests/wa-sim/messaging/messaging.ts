/**
 * A client's outgoing `<message>`: the server acks it, then fans each per-device `<to>` out. Simulated devices
 * (contacts, phones) decrypt their copy — contacts keep it and answer with receipts; companions of other linked
 * accounts get it forwarded (or queued while offline). Group messages add the sender-key `skmsg`, which every
 * member device decrypts with the sender key distributed in its `<to>` copy.
 */
import type { proto } from '@whiskeysockets/baileys';
import type { ClientConnection, CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import { linkedCompanions } from '#tests/wa-sim/accounts/accounts.js';
import { isBlocked } from '#tests/wa-sim/accounts/blocklist.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import { companionAddress, companionKey } from '#tests/wa-sim/accounts/directory.js';
import type { CipherType, SignalDevice } from '#tests/wa-sim/crypto/signal-device.js';
import type { Group } from '#tests/wa-sim/groups/groups.js';
import { mediaRefOf, withOpenedMedia } from '#tests/wa-sim/media/received-media.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  children,
  decodeMessage,
  lidJid,
  makeNode,
  messageKind,
  messageText,
  parseJid,
  pnJid,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import { noteClientMessage } from './chat-log.js';
import { autoReceipts } from './receipts.js';
import { decodeReceived } from './received-content.js';

interface Outgoing {
  readonly sim: Simulator;
  readonly sender: CompanionDevice;
  readonly node: BinaryNode;
  readonly id: string;
  readonly to: string;
  readonly timestamp: number;
}

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
  const isPeer = node.attrs.category === 'peer';
  if (sender.account.restriction && !group && !isPeer && parseJid(to)?.user !== sender.account.phone) {
    // 463: the account may not start chats; clients treat it as a restriction and do not retry.
    connection.send(makeNode('ack', { class: 'message', id, from: to, t: String(unixNow()), error: '463' }));
    return;
  }
  connection.send(makeNode('ack', { class: 'message', id, from: to, t: String(unixNow()) }));
  const out: Outgoing = { sim, sender, node, id, to, timestamp: Number(node.attrs.t ?? unixNow()) };
  noteClientMessage(sim, sender, node, group, out.timestamp);
  const targets = children(child(node, 'participants'), 'to');
  const delivered = new Set<CompanionDevice>();
  const skmsg = children(node, 'enc').find((enc) => enc.attrs.type === 'skmsg');
  for (const target of targets) {
    const enc = child(target, 'enc');
    const who = sim.directory.resolve(target.attrs.jid);
    if (!enc || !who) continue;
    if (who.kind === 'contact') await contactReceives(out, who.contact, enc, group);
    else if (who.kind === 'phone') await phoneReceives(out, who.account.primary, enc);
    else if (who.device && who.device !== sender && !blockedBy(who.device, out, group)) {
      forward(out, who.device, group, skmsg ? [enc, skmsg] : [enc]);
      delivered.add(who.device);
    }
  }
  if (group && skmsg) await fanOutSenderKeyMessage(out, group, skmsg, delivered);
}

/** A 1:1 message to an account that blocked the sender's account is not delivered (groups still are). */
function blockedBy(device: CompanionDevice, out: Outgoing, group: Group | undefined): boolean {
  return !group && isBlocked(device.account, out.sender.account.lid);
}

async function decryptFrom(
  out: Outgoing,
  device: SignalDevice,
  enc: BinaryNode,
): Promise<Buffer | undefined> {
  const type = enc.attrs.type;
  if ((type !== 'pkmsg' && type !== 'msg') || !(enc.content instanceof Uint8Array)) return undefined;
  try {
    return await device.decrypt(companionAddress(out.sender), type satisfies CipherType, enc.content);
  } catch (error) {
    out.sim.stats.decryptFailures++;
    out.sim.log.warn(`message ${out.id}: a simulated device could not decrypt its copy`, error);
    return undefined;
  }
}

async function contactReceives(
  out: Outgoing,
  contact: Contact,
  enc: BinaryNode,
  group: Group | undefined,
): Promise<void> {
  const plaintext = await decryptFrom(out, contact.device, enc);
  if (!plaintext) return;
  const message = decodeMessage(plaintext);
  const skdm = message.senderKeyDistributionMessage;
  if (group && skdm?.axolotlSenderKeyDistributionMessage) {
    await contact.device.processSenderKeyDistribution(
      group.jid,
      companionAddress(out.sender),
      skdm.axolotlSenderKeyDistributionMessage,
    );
    return;
  }
  if (group) return;
  await contactKeeps(out, contact, message, undefined);
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
  out.sim.stats.decryptedByContacts++;
  out.sim.stats.lastDecryptedAtMs = Date.now();
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

async function phoneReceives(out: Outgoing, device: SignalDevice, enc: BinaryNode): Promise<void> {
  // The phone decrypts its copy (a device-sent copy for the sender's own phone) to keep its ratchet in step.
  await decryptFrom(out, device, enc);
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
      await contactReadsGroup(out, contact, group, skmsg.content);
      continue;
    }
    const account = out.sim.accounts.get(phone);
    if (!account) continue;
    for (const device of linkedCompanions(account)) {
      // Members that already hold the sender key get the skmsg alone.
      if (device !== out.sender && !delivered.has(device)) forward(out, device, group, [skmsg]);
    }
  }
}

async function contactReadsGroup(
  out: Outgoing,
  contact: Contact,
  group: Group,
  ciphertext: Uint8Array,
): Promise<void> {
  let message: proto.Message;
  try {
    const plaintext = await contact.device.decryptGroup(group.jid, companionAddress(out.sender), ciphertext);
    message = decodeMessage(plaintext);
  } catch (error) {
    out.sim.stats.decryptFailures++;
    out.sim.log.warn(`group message ${out.id}: ${contact.number} could not decrypt`, error);
    return;
  }
  await contactKeeps(out, contact, message, group);
}

function forward(out: Outgoing, device: CompanionDevice, group: Group | undefined, encs: BinaryNode[]): void {
  const account = out.sender.account;
  const fromDevice = pnJid(account.phone, out.sender.deviceId);
  const fromLid = lidJid(account.lid, out.sender.deviceId);
  const sameAccount = device.account === account;
  const attrs: Record<string, string | undefined> = group
    ? { from: group.jid, participant: fromDevice, participant_lid: fromLid }
    : { from: fromDevice, sender_lid: fromLid, recipient: sameAccount ? out.to : undefined };
  const node = makeNode(
    'message',
    {
      ...attrs,
      id: out.id,
      t: String(out.timestamp),
      type: out.node.attrs.type ?? 'text',
      category: out.node.attrs.category,
      notify: account.pushName,
    },
    encs,
  );
  if (out.sim.log.debugEnabled) out.sim.log.debug(`forward ${out.id} to ${companionKey(device)}`);
  out.sim.deliver(device, node);
}
