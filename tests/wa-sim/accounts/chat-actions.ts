/**
 * The phone changes a chat (`POST /admin/accounts/{phone}/chats/{jid}`): each change is the app-state mutation
 * WhatsApp writes for it (`chat-state.ts` names them), one patch per collection, announced to every companion with
 * `server_sync`. Baileys fetches the patch and turns it into `chats.update` (archived, pinned, muteEndTime,
 * unreadCount 0 or -1) or `chats.delete`; a cleared chat gives it nothing to emit. Labels put on the chat or taken
 * off are `label_jid` actions (`label-state.ts`), which Baileys reports as `labels.association`.
 */
import { proto } from '@whiskeysockets/baileys';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import type { Account, PhoneChat } from './accounts.js';
import { type PhoneMutation, phoneMakes, type WrittenPatch } from './app-state.js';
import { CHAT_ACTIONS, type ChatActionName, chatOf, messageRangeOf } from './chat-state.js';
import { LABEL_COLLECTION, labelChatContent } from './label-state.js';

/** What the phone does to a chat; every field is optional, and they are written in this order. */
export interface ChatChange {
  readonly read?: boolean;
  readonly archived?: boolean;
  readonly pinned?: boolean;
  /** Muted until (epoch ms), -1 for ever, null to unmute. */
  readonly muteUntil?: number | null;
  readonly cleared?: true;
  readonly deleted?: true;
  /** Labels (ids) the phone puts on the chat or takes off it. */
  readonly labels?: { readonly add?: readonly string[]; readonly remove?: readonly string[] };
}

/** What a change did: the chat after it, the patches written, how many companions were told. */
export interface ChatChangeResult {
  readonly chat: PhoneChat;
  readonly written: readonly WrittenPatch[];
  readonly notified: number;
}

/** The phone applies `change` to chat `jid` of `account`, writes it to its app state and tells its companions. */
export function phoneChangesChat(
  sim: Simulator,
  account: Account,
  jid: string,
  change: ChatChange,
): ChatChangeResult {
  const chat = chatOf(account, jid);
  // Taken before any change: a delete forgets the chat's last message.
  const range = messageRangeOf(chat);
  const actions: Array<[ChatActionName, proto.ISyncActionValue]> = [];
  if (change.read !== undefined) {
    actions.push(['markRead', { markChatAsReadAction: { read: change.read, messageRange: range } }]);
  }
  if (change.archived !== undefined) {
    actions.push(['archive', { archiveChatAction: { archived: change.archived, messageRange: range } }]);
  }
  if (change.pinned !== undefined) actions.push(['pin', { pinAction: { pinned: change.pinned } }]);
  if (change.muteUntil !== undefined) {
    const muteAction =
      change.muteUntil === null ? { muted: false } : { muted: true, muteEndTimestamp: change.muteUntil };
    actions.push(['mute', { muteAction }]);
  }
  if (change.cleared) actions.push(['clear', { clearChatAction: { messageRange: range } }]);
  if (change.deleted) actions.push(['delete', { deleteChatAction: { messageRange: range } }]);
  const timestamp = Date.now();
  const mutations: PhoneMutation[] = actions.map(([name, value]) => {
    const spec = CHAT_ACTIONS[name];
    return {
      collection: spec.collection,
      content: {
        operation: proto.SyncdMutation.SyncdOperation.SET,
        index: spec.index(jid),
        value: { timestamp, ...value },
        apiVersion: spec.apiVersion,
      },
    };
  });
  const tags = [
    ...(change.labels?.add ?? []).map((labelId) => labelChatContent(labelId, jid, true, timestamp)),
    ...(change.labels?.remove ?? []).map((labelId) => labelChatContent(labelId, jid, false, timestamp)),
  ];
  for (const content of tags) mutations.push({ collection: LABEL_COLLECTION, content });
  return { chat, ...phoneMakes(sim, account, mutations) };
}
