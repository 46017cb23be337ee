/**
 * The history the phone sends a new companion inline (INITIAL_BOOTSTRAP, zlib-deflated `HistorySync`): every contact's
 * push name and LID ↔ number pair, and one conversation per chat the phone shows — the chats its chat state knows
 * (`accounts/chat-state.ts`: flags, last message, unread count) and the groups the account is in — with `archived`,
 * `pinned`, `muteEndTime`, `unreadCount`, `markedAsUnread`, `conversationTimestamp` and the name the phone knows
 * (the address book's for a saved contact, the subject for a group). Deleted chats are left out. No messages are
 * included: the phone keeps no message content. Baileys emits them as `messaging-history.set` `chats`.
 */
import { deflateSync } from 'node:zlib';
import { proto } from '@whiskeysockets/baileys';
import type { Account, PhoneChat } from '#tests/wa-sim/accounts/accounts.js';
import { blankChat } from '#tests/wa-sim/accounts/chat-state.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { lidJid, parseJid, pnJid } from '#tests/wa-sim/transport/binary.js';

/** The inline history payload for a new companion of `account`. */
export function historyPayload(sim: Simulator, account: Account): Buffer {
  const contacts = sim.contacts.all();
  const history = proto.HistorySync.encode({
    syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
    conversations: conversationsOf(sim, account),
    pushnames: contacts.map((contact) => ({ id: pnJid(contact.number), pushname: contact.name })),
    phoneNumberToLidMappings: contacts.map((contact) => ({
      pnJid: pnJid(contact.number),
      lidJid: lidJid(contact.lid),
    })),
  }).finish();
  return deflateSync(history);
}

/** The phone's chat list, most recent first. */
export function conversationsOf(sim: Simulator, account: Account): proto.IConversation[] {
  // A group the account is in is a chat even before its first message.
  const groups = sim.groups
    .all()
    .filter((group) => group.members.has(account.phone) && !account.chats.has(group.jid))
    .map((group) => blankChat(group.jid));
  return [...account.chats.values(), ...groups]
    .filter((chat) => chat.deletedAt === null)
    .sort((a, b) => (b.lastMessage?.timestamp ?? 0) - (a.lastMessage?.timestamp ?? 0))
    .map((chat) => conversation(sim, account, chat));
}

function conversation(sim: Simulator, account: Account, chat: PhoneChat): proto.IConversation {
  const timestamp = chat.lastMessage?.timestamp;
  return {
    id: chat.jid,
    ...names(sim, account, chat.jid),
    archived: chat.archived,
    // Seconds here, where the app-state pin action carries milliseconds.
    pinned: chat.pinnedAt === null ? undefined : Math.floor(chat.pinnedAt / 1000),
    // Seconds as well; a mute for ever stays -1 (2^64 - 1 in this unsigned field, -1 to clients reading it signed).
    muteEndTime:
      chat.muteEndTimestamp === null
        ? undefined
        : chat.muteEndTimestamp === -1
          ? -1
          : Math.floor(chat.muteEndTimestamp / 1000),
    unreadCount: chat.unreadCount,
    markedAsUnread: chat.markedUnread,
    conversationTimestamp: timestamp,
    lastMsgTimestamp: timestamp,
  };
}

/** The chat's name as the phone shows it (a saved contact's, a group's subject) and the other form of a user's jid. */
function names(
  sim: Simulator,
  account: Account,
  jid: string,
): Pick<proto.IConversation, 'name' | 'lidJid' | 'pnJid'> {
  const parsed = parseJid(jid);
  if (!parsed) return {};
  if (parsed.server === 'g.us') return { name: sim.groups.get(jid)?.subject };
  const contact = sim.contacts.findByUser(parsed.user);
  const other = contact ? undefined : sim.accounts.findByUser(parsed.user);
  const number = contact?.number ?? other?.phone;
  const lid = contact?.lid ?? other?.lid;
  if (!number || !lid) return {};
  return {
    ...(parsed.isLid ? { pnJid: pnJid(number) } : { lidJid: lidJid(lid) }),
    name: account.addressBook.get(number),
  };
}
