/**
 * What the phones see of messages, for their chats (`accounts/chat-state.ts`): each message an account sends or
 * receives, 1:1 or in a group, becomes its chat's last message (key and timestamp, no content) and counts as unread
 * when it came from someone else. Reactions, edits and revokes change an earlier message rather than adding one, and
 * a device's peer messages belong to no chat: none of them count.
 */
import type { Account, CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import { isBlocked } from '#tests/wa-sim/accounts/blocklist.js';
import { noteChatMessage, noteChatRead } from '#tests/wa-sim/accounts/chat-state.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import type { Group } from '#tests/wa-sim/groups/groups.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, pnJid } from '#tests/wa-sim/transport/binary.js';

const NOT_A_CHAT_MESSAGE = new Set(['reaction', 'edit', 'revoke']);

/** A companion's message `node` (to `to`, or to `group`) went out: the sender's and the receiving accounts' chats. */
export function noteClientMessage(
  sim: Simulator,
  sender: CompanionDevice,
  node: BinaryNode,
  group: Group | undefined,
  timestamp: number,
): void {
  const { id, to, category, type, edit } = node.attrs;
  // Baileys marks edits (`edit="1"`) and revokes (`edit="7"`) on the stanza, reactions by its type.
  if (!id || !to || category === 'peer' || type === 'reaction' || edit) return;
  const account = sender.account;
  const from = pnJid(account.phone);
  if (group) {
    noteChatMessage(account, { remoteJid: group.jid, fromMe: true, id }, timestamp);
    for (const phone of group.members.keys()) {
      const member = sim.accounts.get(phone);
      if (!member || member === account) continue;
      noteChatMessage(member, { remoteJid: group.jid, fromMe: false, id, participant: from }, timestamp);
    }
    return;
  }
  // Users the network does not know, and status posts (`status@broadcast`), make no chat.
  const owner = sim.directory.owner(to);
  if (!owner) return;
  const chat = 'account' in owner ? pnJid(owner.account.phone) : pnJid(owner.contact.number);
  noteChatMessage(account, { remoteJid: chat, fromMe: true, id }, timestamp);
  if ('account' in owner && owner.account !== account && !isBlocked(owner.account, account.lid)) {
    noteChatMessage(owner.account, { remoteJid: from, fromMe: false, id }, timestamp);
  }
}

/** `contact` sent message `id` of `kind` to `account` (1:1) or to `group`: the receiving accounts' chats. */
export function noteContactMessage(
  sim: Simulator,
  contact: Contact,
  target: { readonly account: Account } | { readonly group: Group },
  message: { readonly id: string; readonly kind: string; readonly timestamp: number },
): void {
  if (NOT_A_CHAT_MESSAGE.has(message.kind)) return;
  const { id, timestamp } = message;
  const from = pnJid(contact.number);
  if ('account' in target) {
    noteChatMessage(target.account, { remoteJid: from, fromMe: false, id }, timestamp);
    return;
  }
  for (const phone of target.group.members.keys()) {
    const member = sim.accounts.get(phone);
    const key = { remoteJid: target.group.jid, fromMe: false, id, participant: from };
    if (member) noteChatMessage(member, key, timestamp);
  }
}

/** A companion sent read receipts in chat `to` (a user or a group): the phone shows the chat read. */
export function noteClientRead(sim: Simulator, sender: CompanionDevice, to: string): void {
  const owner = to.endsWith('@g.us') ? undefined : sim.directory.owner(to);
  const chat = !owner ? to : 'account' in owner ? pnJid(owner.account.phone) : pnJid(owner.contact.number);
  noteChatRead(sender.account, chat);
}
