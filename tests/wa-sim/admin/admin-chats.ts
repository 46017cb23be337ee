/**
 * Admin routes for an account's chats as its phone shows them: the chat list (archive, pin, mute, read, delete,
 * clear, last message), the phone changing a chat (written to app state, `accounts/chat-actions.ts`; labels put on it
 * or taken off too), and the chat states the account showed (typing, recording, paused).
 */
import { phoneChangesChat } from '#tests/wa-sim/accounts/chat-actions.js';
import { chatView } from '#tests/wa-sim/accounts/chat-state.js';
import { liveLabel } from '#tests/wa-sim/accounts/label-state.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { notFound } from '#tests/wa-sim/support/errors.js';
import { accountOf } from './admin-accounts.js';
import { ChatChangeBody, ChatJid, parseBody, parseParam, type Route } from './admin-schemas.js';

/** The chat jid in the path, whose user (a contact or an account, by number or LID) or group must exist. */
function knownChat(sim: Simulator, raw: string | undefined): string {
  const jid = parseParam(ChatJid, 'jid', raw);
  const known = jid.endsWith('@g.us') ? sim.groups.get(jid) : sim.directory.owner(jid);
  if (!known) throw notFound(`no contact, account or group ${jid}`);
  return jid;
}

/** Routes under `/admin/accounts/{phone}/chats` and `/chatstates`. */
export const chatRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/admin\/accounts\/(\d+)\/chats$/,
    handle: (sim, [phone]) => {
      const account = accountOf(sim, phone);
      return { body: { phone: account.phone, chats: [...account.chats.values()].map(chatView) } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/accounts\/(\d+)\/chats\/([^/]+)$/,
    handle: (sim, [phone, raw]) => {
      const account = accountOf(sim, phone);
      const jid = parseParam(ChatJid, 'jid', raw);
      const chat = account.chats.get(jid);
      if (!chat) throw notFound(`the phone of ${account.phone} has no chat ${jid}`);
      return { body: chatView(chat) };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/accounts\/(\d+)\/chats\/([^/]+)$/,
    handle: (sim, [phone, raw], body) => {
      const account = accountOf(sim, phone);
      const jid = knownChat(sim, raw);
      const change = parseBody(ChatChangeBody, body);
      // The phone offers only its labels to put on a chat; it may take any tag off.
      const unknown = (change.labels?.add ?? []).filter((id) => !liveLabel(account, id));
      if (unknown.length > 0)
        throw notFound(`the phone of ${account.phone} has no label ${unknown.join(', ')}`);
      const { chat, written, notified } = phoneChangesChat(sim, account, jid, change);
      return { body: { phone: account.phone, chat: chatView(chat), written, notified } };
    },
  },
  {
    method: 'GET',
    pattern: /^\/admin\/accounts\/(\d+)\/chatstates$/,
    handle: (sim, [phone]) => {
      const account = accountOf(sim, phone);
      return { body: { phone: account.phone, chatstates: sim.presence.shownBy(account.phone) } };
    },
  },
];
