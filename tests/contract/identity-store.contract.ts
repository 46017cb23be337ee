/**
 * Behaviour every IdentityStore adapter must show: a LID and a phone linked in a session resolve to each other, a
 * phone with several LIDs names them all, a LID that moves to another phone leaves the first, and sessions are apart.
 */
import type { IdentityStore } from '#shared/ports/identity-store.port.js';
import { type OpenedWithSessions, withTwoSessions } from './two-sessions.js';

export type OpenedIdentityStore = OpenedWithSessions<IdentityStore>;

const PHONE = '15550001111@c.us';
const OTHER_PHONE = '15550002222@c.us';
const LID = '123456789012345@lid';
const LID_2 = '223456789012345@lid';

export function identityStoreContract(name: string, open: () => Promise<OpenedIdentityStore>): void {
  describe(`IdentityStore contract: ${name}`, () => {
    const opened = withTwoSessions(open);
    let store: IdentityStore;
    let s1: string;
    let s2: string;
    beforeEach(() => {
      ({ store, s1, s2 } = opened);
    });

    it('knows no aliases for an id never linked, and a link made after a read shows at the next read', async () => {
      expect(await store.aliasesOf(s1, PHONE)).toEqual([]);
      expect(await store.aliasesOf(s1, LID)).toEqual([]);
      await store.link(s1, { lid: LID, phone: PHONE });
      expect(await store.aliasesOf(s1, PHONE)).toEqual([LID]);
      expect(await store.aliasesOf(s1, LID)).toEqual([PHONE]);
    });

    it('resolves a linked LID and phone to each other, and a phone to all its LIDs', async () => {
      await store.link(s1, { lid: LID, phone: PHONE });
      await store.link(s1, { lid: LID, phone: PHONE });
      expect(await store.aliasesOf(s1, LID)).toEqual([PHONE]);
      expect(await store.aliasesOf(s1, PHONE)).toEqual([LID]);
      // Each id read before the second LID is linked: what names PHONE must show it afterwards.
      await store.link(s1, { lid: LID_2, phone: PHONE });
      expect(await store.aliasesOf(s1, PHONE)).toEqual([LID, LID_2]);
      expect(await store.aliasesOf(s1, LID)).toEqual([PHONE, LID_2].sort());
    });

    it('moves a LID relinked to another phone, and keeps sessions apart', async () => {
      await store.link(s1, { lid: LID, phone: PHONE });
      expect(await store.aliasesOf(s1, PHONE)).toEqual([LID]);
      expect(await store.aliasesOf(s1, OTHER_PHONE)).toEqual([]);
      await store.link(s1, { lid: LID, phone: OTHER_PHONE });
      expect(await store.aliasesOf(s1, PHONE)).toEqual([]);
      expect(await store.aliasesOf(s1, OTHER_PHONE)).toEqual([LID]);
      expect(await store.aliasesOf(s2, LID)).toEqual([]);
    });

    it('forgets a session’s aliases on delete, not another’s', async () => {
      await store.link(s1, { lid: LID, phone: PHONE });
      await store.link(s2, { lid: LID, phone: PHONE });
      expect(await store.aliasesOf(s1, PHONE)).toEqual([LID]);
      await store.deleteBySession(s1);
      expect(await store.aliasesOf(s1, PHONE)).toEqual([]);
      expect(await store.aliasesOf(s2, PHONE)).toEqual([LID]);
    });

    it('lists a session’s aliases by LID in pages of at most the limit, each once, the pairing as last linked', async () => {
      const lids = ['3@lid', '1@lid', '5@lid', '2@lid', '4@lid'];
      for (const lid of lids) await store.link(s1, { lid, phone: PHONE });
      await store.link(s1, { lid: '4@lid', phone: OTHER_PHONE });
      await store.link(s2, { lid: '9@lid', phone: PHONE });
      const seen: { lid: string; phone: string }[] = [];
      let after: string | null = null;
      for (let pages = 0; pages < 10; pages += 1) {
        const page = await store.list(s1, after, 2);
        expect(page.aliases.length).toBeLessThanOrEqual(2);
        seen.push(...page.aliases);
        after = page.next;
        if (after === null) break;
      }
      expect(after).toBeNull();
      expect(seen).toEqual(
        [...lids].sort().map((lid) => ({ lid, phone: lid === '4@lid' ? OTHER_PHONE : PHONE })),
      );
      expect(await store.list(s2, null, 10)).toEqual({
        aliases: [{ lid: '9@lid', phone: PHONE }],
        next: null,
      });
    });
  });
}
