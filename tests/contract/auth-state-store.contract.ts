/**
 * Behaviour every AuthStateStore adapter must show: opaque text in and out, keys by (category, id) with null
 * deleting, all-or-nothing batches, isolation of categories and sessions, idempotent wipes, and the same refusals.
 */
import { UnavailableError, ValidationError } from '#shared/errors/app-error.js';
import type { AuthKeyChange, AuthStateStore } from '#shared/ports/auth-state-store.port.js';

export interface OpenedAuthStateStore {
  store: AuthStateStore;
  close(): Promise<void>;
}

const S1 = '6f1c2a3e-8b4d-4c5e-9f60-1a2b3c4d5e6f';
const S2 = '0b9e8d7c-6b5a-4f3e-8d2c-1b0a9f8e7d6c';

const set = (category: string, id: string, value: string | null): AuthKeyChange => ({ category, id, value });

/** Text of `length` characters that is not one repeated byte, with some multi-byte characters mixed in. */
function bulkyText(length: number, seed: number): string {
  let text = '';
  for (let i = 0; text.length < length; i++) text += `${(seed * 7919 + i * 104729).toString(36)}é漢🙂|`;
  return text.slice(0, length);
}

export function authStateStoreContract(name: string, open: () => Promise<OpenedAuthStateStore>): void {
  describe(`AuthStateStore contract: ${name}`, () => {
    let store: AuthStateStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    const read = (sessionId: string, category: string, ids: string[]) =>
      store.readKeys(sessionId, category, ids).then((found) => Object.fromEntries(found));

    describe('empty state', () => {
      it('answers no credentials and no keys for a session never written', async () => {
        expect(await store.readCredentials(S1)).toBeNull();
        expect(await store.hasCredentials(S1)).toBe(false);
        const found = await store.readKeys(S1, 'session', ['a', 'b']);
        expect(found).toBeInstanceOf(Map);
        expect(found.size).toBe(0);
        expect((await store.readKeys(S1, 'session', [])).size).toBe(0);
      });

      it('treats an empty batch as a no-op', async () => {
        await store.writeKeys(S1, []);
        expect(await read(S1, 'session', ['a'])).toEqual({});
      });
    });

    describe('credentials', () => {
      it('round-trips the document and replaces it on the next write', async () => {
        const first = JSON.stringify({ me: { id: '4915112345678:1@s.whatsapp.net' }, noiseKey: 'AAEC' });
        await store.writeCredentials(S1, first);
        expect(await store.readCredentials(S1)).toBe(first);
        expect(await store.hasCredentials(S1)).toBe(true);
        await store.writeCredentials(S1, '{"registered":true}');
        expect(await store.readCredentials(S1)).toBe('{"registered":true}');
      });

      it('keeps credentials and keys apart', async () => {
        await store.writeKeys(S1, [set('pre-key', '1', 'k')]);
        expect(await store.hasCredentials(S1)).toBe(false);
        await store.writeCredentials(S1, 'creds');
        expect(await read(S1, 'pre-key', ['1'])).toEqual({ '1': 'k' });
      });
    });

    describe('keys', () => {
      it('answers the stored values of the ids asked for and leaves missing ids out', async () => {
        await store.writeKeys(S1, [
          set('session', 'a', 'A'),
          set('session', 'b', 'B'),
          set('session', 'c', ''),
        ]);
        expect(await read(S1, 'session', ['a', 'c', 'missing'])).toEqual({ a: 'A', c: '' });
        expect(await read(S1, 'session', ['b', 'b'])).toEqual({ b: 'B' });
      });

      it('overwrites a value and deletes a key written as null, ignoring deletes of missing keys', async () => {
        await store.writeKeys(S1, [set('session', 'a', 'A1'), set('session', 'b', 'B1')]);
        await store.writeKeys(S1, [
          set('session', 'a', 'A2'),
          set('session', 'b', null),
          set('session', 'zz', null),
        ]);
        expect(await read(S1, 'session', ['a', 'b', 'zz'])).toEqual({ a: 'A2' });
      });

      it('applies a batch in order, so the last change to a key wins', async () => {
        await store.writeKeys(S1, [
          set('s', 'a', '1'),
          set('s', 'a', '2'),
          set('s', 'b', '1'),
          set('s', 'b', null),
        ]);
        expect(await read(S1, 's', ['a', 'b'])).toEqual({ a: '2' });
        await store.writeKeys(S1, [set('s', 'a', null), set('s', 'a', '3')]);
        expect(await read(S1, 's', ['a'])).toEqual({ a: '3' });
      });

      it('writes nothing of a batch with one invalid change, whatever came before it', async () => {
        await store.writeKeys(S1, [set('session', 'a', 'A'), set('session', 'b', 'B')]);
        // Warm any cache in front of the store so a leaked partial write would show.
        expect(await read(S1, 'session', ['a', 'b', 'c'])).toEqual({ a: 'A', b: 'B' });
        const poisoned = [
          set('session', 'a', 'A2'),
          set('session', 'c', 'C'),
          set('session', 'b', null),
          { category: 'session', id: 'd', value: Buffer.from('not text') as unknown as string },
        ];
        await expect(store.writeKeys(S1, poisoned)).rejects.toBeInstanceOf(ValidationError);
        await expect(
          store.writeKeys(S1, [set('session', 'a', 'A3'), set('', 'x', 'y')]),
        ).rejects.toMatchObject({
          code: 'VALIDATION_FAILED',
        });
        await expect(
          store.writeKeys(S1, [set('session', 'a', 'A4'), set('session', '', 'y')]),
        ).rejects.toThrow(ValidationError);
        expect(await read(S1, 'session', ['a', 'b', 'c', 'd', 'x'])).toEqual({ a: 'A', b: 'B' });
      });

      it('keeps categories apart, also when names would collide if simply concatenated', async () => {
        await store.writeKeys(S1, [set('session', '1', 'S'), set('pre-key', '1', 'P')]);
        await store.writeKeys(S1, [set('ab', 'c', 'AB+C'), set('a', 'bc', 'A+BC'), set('a:', 'x', 'A:+X')]);
        await store.writeKeys(S1, [set('pre-key', '1', null)]);
        expect(await read(S1, 'session', ['1'])).toEqual({ '1': 'S' });
        expect(await read(S1, 'pre-key', ['1'])).toEqual({});
        expect(await read(S1, 'ab', ['c', 'bc'])).toEqual({ c: 'AB+C' });
        expect(await read(S1, 'a', ['c', 'bc', ':x'])).toEqual({ bc: 'A+BC' });
      });

      it('keeps sessions apart', async () => {
        await store.writeCredentials(S1, 'one');
        await store.writeKeys(S1, [set('session', 'a', 'from S1')]);
        await store.writeKeys(S2, [set('session', 'a', 'from S2')]);
        expect(await store.readCredentials(S2)).toBeNull();
        expect(await read(S1, 'session', ['a'])).toEqual({ a: 'from S1' });
        expect(await read(S2, 'session', ['a'])).toEqual({ a: 'from S2' });
      });

      it('reads thousands of ids in one call', async () => {
        const changes = Array.from({ length: 3000 }, (_, i) => set('pre-key', String(i), `value-${i}`));
        await store.writeKeys(S1, changes);
        const ids = Array.from({ length: 3500 }, (_, i) => String(i));
        const found = await store.readKeys(S1, 'pre-key', ids);
        expect(found.size).toBe(3000);
        expect(found.get('0')).toBe('value-0');
        expect(found.get('2999')).toBe('value-2999');
        expect(found.has('3000')).toBe(false);
      });

      it('round-trips values of 100 KB exactly, in keys and credentials', async () => {
        const big = bulkyText(100 * 1024, 1);
        const other = bulkyText(100 * 1024, 2);
        await store.writeKeys(S1, [
          set('app-state-sync-version', 'regular', big),
          set('session', 'x', other),
        ]);
        await store.writeCredentials(S1, other);
        const found = await store.readKeys(S1, 'app-state-sync-version', ['regular']);
        expect(found.get('regular')).toBe(big);
        expect(await store.readCredentials(S1)).toBe(other);
      });

      it('keeps unicode, punctuation and number-like ids and categories distinct and intact', async () => {
        const ids = [
          '🙂',
          'Ünïcødé',
          '中文@lid',
          '1',
          '01',
          '1.0',
          'a b',
          '"quoted"',
          "it's",
          'back\\slash',
          '../x',
        ];
        await store.writeKeys(
          S1,
          ids.map((id) => set('kätegorie 🗝', id, `v:${id}`)),
        );
        const found = await store.readKeys(S1, 'kätegorie 🗝', [...ids, '🙃', '001']);
        expect(Object.fromEntries(found)).toEqual(Object.fromEntries(ids.map((id) => [id, `v:${id}`])));
        expect(await read(S1, 'kategorie 🗝', ids)).toEqual({});
      });
    });

    describe('readAll', () => {
      it('answers every key and the credentials of the session, values of any size, and nothing of others', async () => {
        const large = bulkyText(400_000, 3);
        await store.writeCredentials(S1, 'creds');
        await store.writeKeys(S1, [
          set('session', 'a', 'A'),
          set('pré#1:x', '漢:#2', large),
          set('pre-key', '1', 'P'),
        ]);
        await store.writeKeys(S1, [{ category: 'pre-key', id: '1', value: null }]);
        await store.writeKeys(S2, [set('session', 'b', 'other')]);
        const all = await store.readAll(S1);
        expect(all.credentials).toBe('creds');
        const byName = (a: { category: string; id: string }, b: { category: string; id: string }) =>
          `${a.category}\u0000${a.id}`.localeCompare(`${b.category}\u0000${b.id}`);
        expect([...all.keys].sort(byName)).toEqual(
          [set('session', 'a', 'A'), set('pré#1:x', '漢:#2', large)].sort(byName),
        );
        await store.wipe(S1);
        expect(await store.readAll(S1)).toEqual({ credentials: null, keys: [] });
      });
    });

    describe('wipe and release', () => {
      it('removes credentials and every key of the session and nothing of others', async () => {
        await store.writeCredentials(S1, 'creds');
        await store.writeKeys(S1, [set('session', 'a', 'A'), set('pre-key', '1', 'P')]);
        await store.writeKeys(S2, [set('session', 'a', 'other')]);
        expect(await read(S1, 'session', ['a'])).toEqual({ a: 'A' });
        await store.wipe(S1);
        expect(await store.readCredentials(S1)).toBeNull();
        expect(await store.hasCredentials(S1)).toBe(false);
        expect(await read(S1, 'session', ['a'])).toEqual({});
        expect(await read(S1, 'pre-key', ['1'])).toEqual({});
        expect(await read(S2, 'session', ['a'])).toEqual({ a: 'other' });
      });

      it('is idempotent and lets the session start afresh', async () => {
        await store.wipe(S1);
        await store.writeKeys(S1, [set('session', 'a', 'A')]);
        await store.wipe(S1);
        await store.wipe(S1);
        await store.writeCredentials(S1, 'relinked');
        expect(await store.readCredentials(S1)).toBe('relinked');
        expect(await read(S1, 'session', ['a'])).toEqual({});
      });

      it('keeps the stored state on release and serves it on the next call', async () => {
        await store.writeCredentials(S1, 'creds');
        await store.writeKeys(S1, [set('session', 'a', 'A')]);
        await store.release(S1);
        await store.release(S1);
        expect(await store.readCredentials(S1)).toBe('creds');
        expect(await read(S1, 'session', ['a'])).toEqual({ a: 'A' });
      });
    });

    describe('refusals', () => {
      const badIds = [
        '',
        '.',
        '..',
        '../escape',
        'a/b',
        'a\\b',
        '/abs',
        '.hidden',
        'x'.repeat(129),
        'nul\0',
        'sp ace',
      ];

      it('refuses session ids that are not plain identifiers, on every operation', async () => {
        for (const id of badIds) {
          await expect(store.readCredentials(id)).rejects.toBeInstanceOf(ValidationError);
          await expect(store.writeCredentials(id, 'c')).rejects.toBeInstanceOf(ValidationError);
          await expect(store.hasCredentials(id)).rejects.toBeInstanceOf(ValidationError);
          await expect(store.readKeys(id, 'session', ['a'])).rejects.toBeInstanceOf(ValidationError);
          await expect(store.writeKeys(id, [set('session', 'a', 'A')])).rejects.toBeInstanceOf(
            ValidationError,
          );
          await expect(store.wipe(id)).rejects.toBeInstanceOf(ValidationError);
          await expect(store.release(id)).rejects.toBeInstanceOf(ValidationError);
        }
        await expect(store.readKeys('Plain_id-123', 'session', ['a'])).resolves.toEqual(new Map());
      });

      it('refuses an empty category and a credentials document that is not text', async () => {
        await expect(store.readKeys(S1, '', ['a'])).rejects.toBeInstanceOf(ValidationError);
        const notText = { registered: true } as unknown as string;
        await expect(store.writeCredentials(S1, notText)).rejects.toBeInstanceOf(ValidationError);
        expect(await store.hasCredentials(S1)).toBe(false);
      });

      it('rejects every call with UnavailableError after close, and closing twice is harmless', async () => {
        await store.writeKeys(S1, [set('session', 'a', 'A')]);
        await store.close();
        await store.close();
        await expect(store.readKeys(S1, 'session', ['a'])).rejects.toBeInstanceOf(UnavailableError);
        await expect(store.writeKeys(S1, [set('session', 'a', 'B')])).rejects.toMatchObject({
          code: 'DEPENDENCY_UNAVAILABLE',
          retryable: true,
        });
        await expect(store.readCredentials(S1)).rejects.toBeInstanceOf(UnavailableError);
        await expect(store.wipe(S1)).rejects.toBeInstanceOf(UnavailableError);
      });
    });
  });
}
