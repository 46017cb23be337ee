/** In-memory TeardownFenceStore: the unit-test fake, behaving like the SQLite adapter. */
import type { TeardownFenceStore } from '#shared/ports/session-store.port.js';

/** Fences by session name; active while the expiry is later than `now` (compared as ISO text, like SQLite). */
export class MemoryTeardownFenceStore implements TeardownFenceStore {
  private readonly expiries = new Map<string, string>();

  async put(name: string, expiresAt: Date): Promise<void> {
    this.expiries.set(name, expiresAt.toISOString());
  }

  async clear(name: string): Promise<void> {
    this.expiries.delete(name);
  }

  async isActive(name: string, now: Date): Promise<boolean> {
    const expiresAt = this.expiries.get(name);
    return expiresAt !== undefined && expiresAt > now.toISOString();
  }
}
