/** In-memory SendPacingStore: the unit-test fake, behaving like the SQLite adapter (the rules are pacing-state.ts). */
import type { SendPacingRecord } from '#shared/ports/send-pacing-store.port.js';
import { NO_PACING_STATE, type PacingChange, type PacingState, StatePacingStore } from '../pacing-state.js';

/** Each session's state in a Map; every change reads and writes it in one synchronous step. */
export class MemorySendPacingStore extends StatePacingStore {
  private readonly states = new Map<string, PacingState>();

  protected async change<T>(sessionId: string, rule: (state: PacingState) => PacingChange<T>): Promise<T> {
    const { result, next } = rule(this.states.get(sessionId) ?? NO_PACING_STATE);
    if (next) this.states.set(sessionId, next);
    return result;
  }

  async find(sessionId: string): Promise<SendPacingRecord | null> {
    const state = this.states.get(sessionId);
    return state ? { sessionId, ...state } : null;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return this.states.delete(sessionId) ? 1 : 0;
  }
}
