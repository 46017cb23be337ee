/**
 * The phone changes a chat (`POST /admin/accounts/{phone}/chats/{jid}`): each change is the app-state mutation
 * WhatsApp writes for it (`chat-state.ts` names them), one patch per collection, announced to every companion with
 * `server_sync`. Baileys fetches the patch and turns it into `chats.update` (archived, pinned, muteEndTime,
 * unreadCount 0 or -1) or `chats.delete`; a cleared chat gives it nothing to emit.
 */
import { proto } from '@whiskeysockets/baileys';
import type { MutationContent } from '#tests/wa-sim/crypto/app-state-crypto.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import type { Account, PhoneChat } from './accounts.js';
import { announceCollection, phoneWrite } from './app-state.js';
import { applyChatAction, CHAT_ACTIONS, type ChatActionName, chatOf, messageRangeOf } from './chat-state.js';

/** What the phone does to a chat; every field is optional, and they are written in this order. */
export interface ChatChange {
  readonly read?: boolean;
  readonly archived?: boolean;
  readonly pinned?: boolean;
  /** Muted until (epoch ms), -1 for ever, null to unmute. */
  readonly muteUntil?: number | null;
  readonly cleared?: true;
  readonly deleted?: true;
}

/** A collection the change wrote to and the version it reached. */
export interface WrittenPatch {
  readonly collection: string;
  readonly version: number;
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
  const byCollection = new Map<string, MutationContent[]>();
  const timestamp = Date.now();
  for (const [name, value] of actions) {
    const spec = CHAT_ACTIONS[name];
    const content: MutationContent = {
      operation: proto.SyncdMutation.SyncdOperation.SET,
      index: spec.index(jid),
      value: { timestamp, ...value },
      apiVersion: spec.apiVersion,
    };
    byCollection.set(spec.collection, [...(byCollection.get(spec.collection) ?? []), content]);
    applyChatAction(account, content);
  }
  const written: WrittenPatch[] = [];
  let notified = 0;
  for (const [collection, contents] of byCollection) {
    written.push({ collection, version: phoneWrite(account, collection, contents) });
    notified = announceCollection(sim, account, collection);
  }
  return { chat, written, notified };
}
