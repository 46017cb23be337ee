/**
 * Presence and chat states. Clients subscribe to users (`presence type=subscribe`) and get their current state
 * at once and every change after; `available`/`unavailable` from a client is its account's presence; chat
 * states go to the chat's other party (a contact records it, another account's companions get it) or to a group's
 * other members, and the board keeps the last one each account showed in each chat.
 */
import type { Account, ClientConnection } from '#tests/wa-sim/accounts/accounts.js';
import type { Contact } from '#tests/wa-sim/accounts/contacts.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, firstChild, makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';
import type { ChatState } from './presence-board.js';

/** Handles `<presence>` from a client: its own availability, name, or a subscription. */
export function handlePresence(sim: Simulator, connection: ClientConnection, node: BinaryNode): void {
  const device = connection.device;
  if (!device) return;
  const { type, name, to } = node.attrs;
  const account = device.account;
  if (name) account.pushName = name;
  if (type === 'subscribe' && to) {
    const owner = sim.directory.owner(to);
    if (!owner) return;
    const phone = 'account' in owner ? owner.account.phone : owner.contact.number;
    sim.presence.subscribe(phone, device);
    connection.send('account' in owner ? accountPresence(owner.account) : contactPresence(owner.contact));
    return;
  }
  if (type === 'available' || type === 'unavailable') {
    account.online = type === 'available';
    const update = accountPresence(account);
    for (const watcher of sim.presence.watchersOf(account.phone)) sim.deliver(watcher, update);
  }
}

/**
 * Handles `<chatstate to>` from a client (composing, paused, recording): recorded as what the account showed in that
 * chat; a contact keeps it (`lastChatstate`), another account's companions get it, and in a group every other member
 * account's companions get it with the sender as `participant`.
 */
export function handleChatstate(sim: Simulator, connection: ClientConnection, node: BinaryNode): void {
  const device = connection.device;
  const state = firstChild(node);
  const to = node.attrs.to;
  if (!device || !state || !to) return;
  const account = device.account;
  const from = pnJid(account.phone);
  const shown = {
    from,
    state: state.tag === 'composing' && state.attrs.media === 'audio' ? 'recording' : state.tag,
    at: unixNow(),
  };
  const group = to.endsWith('@g.us') ? sim.groups.get(to) : undefined;
  if (group) {
    if (!group.members.has(account.phone)) return;
    sim.presence.recordShown(account.phone, group.jid, shown);
    const update = makeNode('chatstate', { from: group.jid, participant: from }, [state]);
    for (const phone of group.members.keys()) {
      const member = sim.accounts.get(phone);
      if (member && member !== account) sim.deliverToAccount(member, update);
    }
    return;
  }
  const owner = sim.directory.owner(to);
  if (owner && 'contact' in owner) {
    sim.presence.chatStates.set(owner.contact.number, shown);
    sim.presence.recordShown(account.phone, pnJid(owner.contact.number), shown);
  } else if (owner) {
    sim.presence.recordShown(account.phone, pnJid(owner.account.phone), shown);
    sim.deliverToAccount(owner.account, makeNode('chatstate', { from }, [state]));
  }
}

/** A contact goes online or offline: watchers are told. */
export function setContactOnline(sim: Simulator, contact: Contact, online: boolean): void {
  contact.config.online = online;
  if (!online) contact.lastSeen = unixNow();
  const update = contactPresence(contact);
  for (const watcher of sim.presence.watchersOf(contact.number)) sim.deliver(watcher, update);
}

/** A contact shows a chat state in its chat with `account`. */
export function sendContactChatstate(
  sim: Simulator,
  contact: Contact,
  account: Account,
  state: ChatState,
): void {
  const child = state === 'recording' ? makeNode('composing', { media: 'audio' }) : makeNode(state);
  sim.deliverToAccount(account, makeNode('chatstate', { from: pnJid(contact.number) }, [child]));
}

function contactPresence(contact: Contact): BinaryNode {
  const online = contact.config.online;
  return makeNode('presence', {
    from: pnJid(contact.number),
    type: online ? 'available' : 'unavailable',
    last: online ? undefined : String(contact.lastSeen),
  });
}

function accountPresence(account: Account): BinaryNode {
  return makeNode('presence', {
    from: pnJid(account.phone),
    type: account.online ? 'available' : 'unavailable',
  });
}
