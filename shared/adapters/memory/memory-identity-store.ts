/** In-memory IdentityStore: the unit-test fake, behaving like the SQLite adapter. */
import type { IdentityAlias, IdentityStore } from '#shared/ports/identity-store.port.js';

export class MemoryIdentityStore implements IdentityStore {
  /** Phone by LID, per session. */
  private readonly phoneOfLid = new Map<string, Map<string, string>>();

  async link(sessionId: string, alias: IdentityAlias): Promise<void> {
    const lids = this.phoneOfLid.get(sessionId) ?? new Map<string, string>();
    lids.set(alias.lid, alias.phone);
    this.phoneOfLid.set(sessionId, lids);
  }

  async aliasesOf(sessionId: string, id: string): Promise<string[]> {
    const lids = this.phoneOfLid.get(sessionId) ?? new Map<string, string>();
    const phone = id.endsWith('@lid') ? lids.get(id) : id;
    if (phone === undefined) return [];
    const ids = [phone, ...[...lids].filter(([, p]) => p === phone).map(([lid]) => lid)];
    return ids.filter((other) => other !== id).sort();
  }

  async deleteBySession(sessionId: string): Promise<void> {
    this.phoneOfLid.delete(sessionId);
  }
}
