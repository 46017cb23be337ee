/**
 * In-memory AuthStateStore: the unit-test fake. It validates and refuses exactly like the SQLite adapter and
 * applies a batch only after validating all of it, so it is all-or-nothing in the same way (not durable, of course).
 */
import { UnavailableError } from '#shared/errors/app-error.js';
import {
  type AuthKeyChange,
  type AuthStateSnapshot,
  type AuthStateStore,
  assertAuthSessionId,
  assertCredentialsDocument,
  assertKeyChanges,
  assertKeyName,
} from '#shared/ports/auth-state-store.port.js';

interface SessionState {
  credentials: string | null;
  /** category → id → value. */
  keys: Map<string, Map<string, string>>;
}

/** Auth state of every session in plain maps; strings are immutable, so nothing needs copying. */
export class MemoryAuthStateStore implements AuthStateStore {
  private readonly sessions = new Map<string, SessionState>();
  private closed = false;

  async readCredentials(sessionId: string): Promise<string | null> {
    return this.existing(sessionId)?.credentials ?? null;
  }

  async writeCredentials(sessionId: string, document: string): Promise<void> {
    this.check(sessionId);
    assertCredentialsDocument(document);
    this.state(sessionId).credentials = document;
  }

  async hasCredentials(sessionId: string): Promise<boolean> {
    return (this.existing(sessionId)?.credentials ?? null) !== null;
  }

  async readKeys(sessionId: string, category: string, ids: readonly string[]): Promise<Map<string, string>> {
    const session = this.existing(sessionId);
    assertKeyName(category, 'category');
    const found = new Map<string, string>();
    const stored = session?.keys.get(category);
    if (stored === undefined) return found;
    for (const id of ids) {
      const value = stored.get(id);
      if (value !== undefined) found.set(id, value);
    }
    return found;
  }

  async writeKeys(sessionId: string, changes: readonly AuthKeyChange[]): Promise<void> {
    this.check(sessionId);
    assertKeyChanges(changes);
    if (changes.length === 0) return;
    const { keys } = this.state(sessionId);
    for (const { category, id, value } of changes) {
      let stored = keys.get(category);
      if (value === null) {
        stored?.delete(id);
        continue;
      }
      if (stored === undefined) {
        stored = new Map();
        keys.set(category, stored);
      }
      stored.set(id, value);
    }
  }

  async readAll(sessionId: string): Promise<AuthStateSnapshot> {
    const session = this.existing(sessionId);
    const keys = [...(session?.keys ?? new Map<string, Map<string, string>>())].flatMap(
      ([category, stored]) => [...stored].map(([id, value]) => ({ category, id, value })),
    );
    return { credentials: session?.credentials ?? null, keys };
  }

  async wipe(sessionId: string): Promise<void> {
    this.check(sessionId);
    this.sessions.delete(sessionId);
  }

  async release(sessionId: string): Promise<void> {
    // Nothing is held per session beyond the data itself, which must stay.
    this.check(sessionId);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  /** Refuses calls after close (as a closed database would) and invalid session ids. */
  private check(sessionId: string): void {
    if (this.closed) throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Auth-state store is unavailable');
    assertAuthSessionId(sessionId);
  }

  private existing(sessionId: string): SessionState | undefined {
    this.check(sessionId);
    return this.sessions.get(sessionId);
  }

  private state(sessionId: string): SessionState {
    this.check(sessionId);
    let state = this.sessions.get(sessionId);
    if (state === undefined) {
      state = { credentials: null, keys: new Map() };
      this.sessions.set(sessionId, state);
    }
    return state;
  }
}
