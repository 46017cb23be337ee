/**
 * Presence and chat states. Clients subscribe to users (`presence type=subscribe`) and get their current state
 * at once and every change after; `available`/`unavailable` from a client is its account's presence; chat
 * states go to the chat's other party (a contact records it, another account's companions get it).
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

/** Handles `<chatstate to>` from a client (composing, paused, recording). */
export function handleChatstate(sim: Simulator, connection: ClientConnection, node: BinaryNode): void {
  const device = connection.device;
  const state = firstChild(node);
  const to = node.attrs.to;
  if (!device || !state || !to) return;
  const from = pnJid(device.account.phone);
  const owner = sim.directory.owner(to);
  const shown = state.tag === 'composing' && state.attrs.media === 'audio' ? 'recording' : state.tag;
  if (owner && 'contact' in owner) {
    sim.presence.chatStates.set(owner.contact.number, { from, state: shown, at: unixNow() });
  } else if (owner) {
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
