/** In-memory IdentityStore: the unit-test fake, behaving like the SQLite adapter. */
import type { IdentityAlias, IdentityAliasPage, IdentityStore } from '#shared/ports/identity-store.port.js';

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

  async list(sessionId: string, after: string | null, limit: number): Promise<IdentityAliasPage> {
    const all = [...(this.phoneOfLid.get(sessionId) ?? new Map<string, string>())]
      .filter(([lid]) => after === null || lid > after)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const aliases = all.slice(0, limit).map(([lid, phone]) => ({ lid, phone }));
    return { aliases, next: all.length > limit ? (aliases.at(-1)?.lid ?? null) : null };
  }

  async deleteBySession(sessionId: string): Promise<void> {
    this.phoneOfLid.delete(sessionId);
  }
}
