/**
 * A companion's outgoing message as the server fans it out, and what every fan-out (1:1, group, status) shares:
 * simulated devices decrypting their 1:1 copy, contacts taking the sender's key from it and reading the sender-key
 * message with it, and the forward to companions of other linked accounts.
 */
import type { proto } from '@whiskeysockets/baileys';
import type { CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import { companionAddress, companionKey } from '#tests/wa-sim/accounts/directory.js';
import type { CipherType, SignalDevice } from '#tests/wa-sim/crypto/signal-device.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  decodeMessage,
  lidJid,
  makeNode,
  pnJid,
} from '#tests/wa-sim/transport/binary.js';

/** One message a companion sent, as the server fans it out. */
export interface Outgoing {
  readonly sim: Simulator;
  readonly sender: CompanionDevice;
  readonly node: BinaryNode;
  readonly id: string;
  readonly to: string;
  readonly timestamp: number;
}

/** A simulated device decrypts its 1:1 copy (`pkmsg`/`msg`); undefined (counted, logged) when it cannot. */
export async function decryptFrom(
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

/** How a fan-out treats the `<to>` copies of one message. */
export interface CopyRules {
  /** The sender-key chat (a group jid or `status@broadcast`) the message went to, if any. */
  readonly chat: string | undefined;
  /** The sender-key message, forwarded beside each companion's own copy. */
  readonly skmsg: BinaryNode | undefined;
  /** What a recipient contact does with its copy. */
  readonly contactGets: (contact: Contact, enc: BinaryNode) => Promise<void>;
  /** Whether the account of a recipient companion refuses the message (it blocked the sender). */
  readonly refuses: (device: CompanionDevice) => boolean;
}

/**
 * Hands each `<to>` copy of `out` to its device: contacts as `rules` say; phones decrypt theirs (a device-sent copy
 * for the sender's own phone) to keep their ratchet in step; other companions get it forwarded. Answers the
 * companions it forwarded to.
 */
export async function deliverCopies(
  out: Outgoing,
  targets: readonly BinaryNode[],
  rules: CopyRules,
): Promise<Set<CompanionDevice>> {
  const delivered = new Set<CompanionDevice>();
  for (const target of targets) {
    const enc = child(target, 'enc');
    const who = out.sim.directory.resolve(target.attrs.jid);
    if (!enc || !who) continue;
    if (who.kind === 'contact') await rules.contactGets(who.contact, enc);
    else if (who.kind === 'phone') await decryptFrom(out, who.account.primary, enc);
    else if (who.device && who.device !== out.sender && !rules.refuses(who.device)) {
      forward(out, who.device, rules.chat, rules.skmsg ? [enc, rules.skmsg] : [enc]);
      delivered.add(who.device);
    }
  }
  return delivered;
}

/**
 * A contact decrypts its 1:1 copy of a sender-key message, which only distributes the sender's key: it stores the
 * key for `chat` (a group jid or `status@broadcast`) and keeps nothing as a message.
 */
export async function contactTakesKey(
  out: Outgoing,
  contact: Contact,
  chat: string,
  enc: BinaryNode,
): Promise<void> {
  const plaintext = await decryptFrom(out, contact.device, enc);
  if (!plaintext) return;
  const distribution =
    decodeMessage(plaintext).senderKeyDistributionMessage?.axolotlSenderKeyDistributionMessage;
  if (distribution)
    await contact.device.processSenderKeyDistribution(chat, companionAddress(out.sender), distribution);
  else out.sim.log.warn(`${chat} message ${out.id}: ${contact.number}'s copy carried no sender key`);
}

/** `contact` decrypts the sender-key message (`skmsg`) of `chat`; undefined (counted, logged) when it cannot. */
export async function readSenderKeyMessage(
  out: Outgoing,
  contact: Contact,
  chat: string,
  ciphertext: Uint8Array,
): Promise<proto.Message | undefined> {
  try {
    return decodeMessage(await contact.device.decryptGroup(chat, companionAddress(out.sender), ciphertext));
  } catch (error) {
    out.sim.stats.decryptFailures++;
    out.sim.log.warn(`${chat} message ${out.id}: ${contact.number} could not decrypt`, error);
    return undefined;
  }
}

/** Counts a message a contact decrypted, for `/admin/health` and load runs. */
export function noteDecrypted(sim: Simulator): void {
  sim.stats.decryptedByContacts++;
  sim.stats.lastDecryptedAtMs = Date.now();
}

/**
 * Forwards the message to a companion of a linked account: from the sender's device, or from `chat` with the sender
 * as participant when it went under a sender key (a group jid or `status@broadcast`).
 */
export function forward(
  out: Outgoing,
  device: CompanionDevice,
  chat: string | undefined,
  encs: BinaryNode[],
): void {
  const account = out.sender.account;
  const fromDevice = pnJid(account.phone, out.sender.deviceId);
  const fromLid = lidJid(account.lid, out.sender.deviceId);
  const sameAccount = device.account === account;
  const attrs: Record<string, string | undefined> = chat
    ? { from: chat, participant: fromDevice, participant_lid: fromLid }
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
