/** Who watches whose presence, and the chat states accounts showed (`presence.ts` keeps them). */
import type { CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';

/** Chat states a contact can show. */
export type ChatState = 'composing' | 'recording' | 'paused';

/** A chat state an account showed: who (its phone-number jid), which state, and when (unix seconds). */
export interface ShownChatState {
  readonly from: string;
  readonly state: string;
  readonly at: number;
}

/** Who watches whom (by phone number), and the last chat states accounts showed. */
export class PresenceBoard {
  private readonly watchers = new Map<string, Set<CompanionDevice>>();
  /** Contact number → last chat state an account showed in its 1:1 chat with that contact. */
  readonly chatStates = new Map<string, ShownChatState>();
  /** Account phone → chat jid (a contact's, another account's or a group's) → the last state it showed there. */
  private readonly shown = new Map<string, Map<string, ShownChatState>>();

  /** Records that `device` watches `phone`. */
  subscribe(phone: string, device: CompanionDevice): void {
    const set = this.watchers.get(phone) ?? new Set();
    set.add(device);
    this.watchers.set(phone, set);
  }

  /** Drops every subscription of `device` (its connection closed). */
  unsubscribeAll(device: CompanionDevice): void {
    for (const set of this.watchers.values()) set.delete(device);
  }

  /** The companions watching `phone`. */
  watchersOf(phone: string): CompanionDevice[] {
    return [...(this.watchers.get(phone) ?? [])];
  }

  /** Records that the account `phone` showed `state` in chat `chat`. */
  recordShown(phone: string, chat: string, state: ShownChatState): void {
    const byChat = this.shown.get(phone) ?? new Map<string, ShownChatState>();
    byChat.set(chat, state);
    this.shown.set(phone, byChat);
  }

  /** The last chat state the account `phone` showed in each chat, by chat jid. */
  shownBy(phone: string): Record<string, ShownChatState> {
    return Object.fromEntries(this.shown.get(phone) ?? []);
  }
}
