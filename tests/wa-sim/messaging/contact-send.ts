/**
 * Messages from simulated contacts to linked accounts: 1:1 texts (`pkmsg` until the companion answers, then
 * `msg`) and group texts (the sender key's distribution message in a 1:1 envelope for companions that lack it,
 * plus the `skmsg`). Each companion of the account gets its own copy; offline ones get it at their next login.
 */
import { type Account, linkedCompanions } from '#tests/wa-sim/accounts/accounts.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import { companionKey, contactAddress } from '#tests/wa-sim/accounts/directory.js';
import type { Group } from '#tests/wa-sim/groups/groups.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { badRequest } from '#tests/wa-sim/support/errors.js';
import {
  type BinaryNode,
  encodeMessage,
  lidJid,
  makeNode,
  pnJid,
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import { sealForCompanion } from './seal.js';

/** Result of a contact's send: the message id and how many companions got it now or queued. */
export interface ContactSend {
  readonly id: string;
  readonly devices: number;
}

/** `contact` sends `text` to the account `account`. */
export async function contactSendText(
  sim: Simulator,
  contact: Contact,
  account: Account,
  text: string,
): Promise<ContactSend> {
  const id = sim.newMessageId();
  const timestamp = unixNow();
  const padded = encodeMessage({ conversation: text });
  const devices = linkedCompanions(account);
  for (const device of devices) {
    const enc = await sealForCompanion(sim, contact.device, device, padded);
    sim.deliver(
      device,
      envelope(contact, { from: pnJid(contact.number), sender_lid: lidJid(contact.lid) }, id, timestamp, [
        enc,
      ]),
    );
  }
  contact.sent.set(id, { id, to: pnJid(account.phone), text, timestamp, status: 'sent' });
  return { id, devices: devices.length };
}

/** `contact` sends `text` to `group`, reaching every member account's companions. */
export async function contactSendGroupText(
  sim: Simulator,
  contact: Contact,
  group: Group,
  text: string,
): Promise<ContactSend> {
  if (!group.members.has(contact.number))
    throw badRequest(`${contact.number} is not a member of ${group.jid}`);
  const id = sim.newMessageId();
  const timestamp = unixNow();
  const { ciphertext, distribution } = await contact.device.encryptGroup(
    group.jid,
    contactAddress(contact),
    encodeMessage({ conversation: text }),
  );
  const skdm = encodeMessage({
    senderKeyDistributionMessage: { groupId: group.jid, axolotlSenderKeyDistributionMessage: distribution },
  });
  const holders = contact.senderKeyHolders.get(group.jid) ?? new Set<string>();
  contact.senderKeyHolders.set(group.jid, holders);
  let devices = 0;
  for (const phone of group.members.keys()) {
    const account = sim.accounts.get(phone);
    if (!account) continue;
    for (const device of linkedCompanions(account)) {
      const encs: BinaryNode[] = [];
      if (!holders.has(companionKey(device))) {
        encs.push(await sealForCompanion(sim, contact.device, device, skdm));
        holders.add(companionKey(device));
      }
      encs.push(makeNode('enc', { v: '2', type: 'skmsg' }, ciphertext));
      const attrs = {
        from: group.jid,
        participant: pnJid(contact.number),
        participant_lid: lidJid(contact.lid),
      };
      sim.deliver(device, envelope(contact, attrs, id, timestamp, encs));
      devices++;
    }
  }
  contact.sent.set(id, { id, to: group.jid, group: group.jid, text, timestamp, status: 'sent' });
  return { id, devices };
}

function envelope(
  contact: Contact,
  addressing: Record<string, string>,
  id: string,
  timestamp: number,
  encs: BinaryNode[],
): BinaryNode {
  return makeNode(
    'message',
    { ...addressing, id, t: String(timestamp), type: 'text', notify: contact.name },
    encs,
  );
}
