/** Who watches whose presence, and the chat states contacts were shown (`presence.ts` keeps them). */
import type { CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';

/** Chat states a contact can show. */
export type ChatState = 'composing' | 'recording' | 'paused';

/** Who watches whom (by phone number), and the last chat state contacts received. */
export class PresenceBoard {
  private readonly watchers = new Map<string, Set<CompanionDevice>>();
  /** Contact number → last chat state an account showed in that chat. */
  readonly chatStates = new Map<string, { from: string; state: string; at: number }>();

  /** Records that `device` watches `phone`. */
  subscribe(phone: string, device: CompanionDevice): void {
    const set = this.watchers.get(phone) ?? new Set();
    set.add(device);
    this.watchers.set(phone, set);
  }

  /** The companions watching `phone`. */
  watchersOf(phone: string): CompanionDevice[] {
    return [...(this.watchers.get(phone) ?? [])];
  }
}
