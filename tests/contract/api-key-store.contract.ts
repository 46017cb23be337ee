/**
 * Behaviour every ApiKeyStore adapter must show: storage by hash, newest-first listing, the last-usable-admin
 * guard on updates and deletes, and coalesced usage counters (api-key-usage.contract.ts).
 */
import type { ApiKey } from '#shared/domain/api-key.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { ApiKeyStore } from '#shared/ports/api-key-store.port.js';
import { anApiKey, at, T0 } from '#tests/helpers/builders.js';
import { apiKeyUsageContract } from './api-key-usage.contract.js';

export interface OpenedApiKeyStore {
  store: ApiKeyStore;
  close(): Promise<void>;
}

export function apiKeyStoreContract(name: string, open: () => Promise<OpenedApiKeyStore>): void {
  describe(`ApiKeyStore contract: ${name}`, () => {
    let store: ApiKeyStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    async function seed(...keys: ApiKey[]): Promise<ApiKey[]> {
      for (const key of keys) await store.create(key);
      return keys;
    }
    const admin = (overrides: Partial<ApiKey> = {}): ApiKey => anApiKey({ role: 'admin', ...overrides });

    describe('create and find', () => {
      it('finds a created key by id and by hash with every field intact', async () => {
        const key = anApiKey({
          allowedIps: ['10.0.0.0/8', '192.168.1.7'],
          allowedSessions: ['s-1', 's-2'],
          allowedChats: ['15550001111@c.us', '120363025246125411@g.us', '880001@lid'],
          expiresAt: at(3600),
          lastUsedAt: at(-60),
          usageCount: 7,
          isActive: false,
          role: 'viewer',
        });
        await store.create(key);
        expect(await store.findById(key.id)).toEqual(key);
        expect(await store.findByHash(key.keyHash)).toEqual(key);
      });

      it('keeps empty allowlists empty and null allowlists null', async () => {
        const empty = anApiKey({ allowedIps: [], allowedSessions: [], allowedChats: [] });
        const open = anApiKey({ allowedIps: null, allowedSessions: null, allowedChats: null });
        await seed(empty, open);
        expect(await store.findById(empty.id)).toMatchObject({
          allowedIps: [],
          allowedSessions: [],
          allowedChats: [],
        });
        expect(await store.findById(open.id)).toMatchObject({
          allowedIps: null,
          allowedSessions: null,
          allowedChats: null,
        });
      });

      it('answers null for an unknown id or hash', async () => {
        expect(await store.findById('missing')).toBeNull();
        expect(await store.findByHash('0'.repeat(64))).toBeNull();
      });

      it('rejects a second key with the same hash with ConflictError and keeps the first', async () => {
        const [first] = await seed(anApiKey());
        const clash = anApiKey({ keyHash: first!.keyHash });
        await expect(store.create(clash)).rejects.toBeInstanceOf(ConflictError);
        await expect(store.create(clash)).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
        expect(await store.findById(clash.id)).toBeNull();
        expect(await store.count()).toBe(1);
      });

      it('rejects a second key with the same id with ConflictError', async () => {
        const [first] = await seed(anApiKey());
        await expect(store.create(anApiKey({ id: first!.id }))).rejects.toMatchObject({ code: 'CONFLICT' });
      });

      it('hands out copies: mutating an argument or a result does not change the store', async () => {
        const key = anApiKey({ allowedIps: ['10.0.0.1'] });
        await store.create(key);
        key.allowedIps?.push('10.0.0.2');
        key.name = 'changed';
        const found = await store.findById(key.id);
        found!.allowedIps!.push('10.0.0.3');
        found!.role = 'admin';
        expect(await store.findById(key.id)).toMatchObject({ allowedIps: ['10.0.0.1'], role: 'operator' });
        expect((await store.findById(key.id))!.name).not.toBe('changed');
      });
    });

    describe('list and count', () => {
      it('lists nothing and counts zero when empty', async () => {
        expect(await store.list()).toEqual([]);
        expect(await store.count()).toBe(0);
      });

      it('lists every key newest first, breaking createdAt ties by id descending', async () => {
        const old = anApiKey({ createdAt: at(0) });
        const tieA = anApiKey({ id: 'aaaa', createdAt: at(10) });
        const tieB = anApiKey({ id: 'bbbb', createdAt: at(10) });
        const newest = anApiKey({ createdAt: at(20) });
        await seed(tieA, old, newest, tieB);
        expect((await store.list()).map((k) => k.id)).toEqual([newest.id, 'bbbb', 'aaaa', old.id]);
        expect(await store.count()).toBe(4);
      });
    });

    describe('applyGuarded', () => {
      const NOW = T0;

      it('answers not_found for an unknown id, for updates and deletes', async () => {
        const update = await store.applyGuarded('missing', { kind: 'update', patch: { name: 'x' } }, NOW);
        expect(update).toEqual({ outcome: 'not_found' });
        expect(await store.applyGuarded('missing', { kind: 'delete' }, NOW)).toEqual({
          outcome: 'not_found',
        });
      });

      it('applies an update, returns the stored key and leaves unpatched fields alone', async () => {
        const [key] = await seed(anApiKey({ usageCount: 3, lastUsedAt: at(-5), createdAt: at(-100) }));
        const patch = {
          name: 'renamed',
          allowedIps: ['1.2.3.4'],
          allowedSessions: null,
          allowedChats: ['15550001111@c.us'],
          updatedAt: at(1),
        };
        const result = await store.applyGuarded(key!.id, { kind: 'update', patch }, NOW);
        const expected = { ...key!, ...patch };
        expect(result).toEqual({ outcome: 'applied', key: expected });
        expect(await store.findById(key!.id)).toEqual(expected);
      });

      it('ignores patch fields that are undefined', async () => {
        const [key] = await seed(anApiKey({ expiresAt: at(500) }));
        await store.applyGuarded(
          key!.id,
          { kind: 'update', patch: { expiresAt: undefined, name: 'n2' } },
          NOW,
        );
        expect(await store.findById(key!.id)).toMatchObject({ expiresAt: at(500), name: 'n2' });
      });

      it('deletes a non-admin key and answers key null', async () => {
        const [key] = await seed(anApiKey());
        expect(await store.applyGuarded(key!.id, { kind: 'delete' }, NOW)).toEqual({
          outcome: 'applied',
          key: null,
        });
        expect(await store.findById(key!.id)).toBeNull();
      });

      it.each([
        ['revoking it (isActive false)', { isActive: false }],
        ['changing its role', { role: 'operator' as const }],
        ['setting expiresAt in the past', { expiresAt: at(-1) }],
        ['setting expiresAt to exactly now', { expiresAt: at(0) }],
        ['scoping it to sessions (allowedSessions)', { allowedSessions: ['s-1'] }],
        ['restricting it to client IPs (allowedIps)', { allowedIps: ['10.0.0.1'] }],
        ['scoping and renaming it at once', { allowedSessions: ['s-1', 's-2'], name: 'scoped admin' }],
      ])('refuses %s on the only usable admin and writes nothing', async (_label, patch) => {
        const [only] = await seed(admin(), anApiKey({ role: 'operator' }));
        const result = await store.applyGuarded(only!.id, { kind: 'update', patch }, NOW);
        expect(result).toEqual({ outcome: 'last_admin' });
        expect(await store.findById(only!.id)).toEqual(only);
      });

      it('refuses deleting the only usable admin and keeps it', async () => {
        const [only] = await seed(admin());
        expect(await store.applyGuarded(only!.id, { kind: 'delete' }, NOW)).toEqual({
          outcome: 'last_admin',
        });
        expect(await store.findById(only!.id)).toEqual(only);
      });

      it('allows revoking and deleting an admin while another usable admin exists', async () => {
        const [first, second] = await seed(admin(), admin({ expiresAt: at(3600) }));
        const revoked = await store.applyGuarded(
          first!.id,
          { kind: 'update', patch: { isActive: false } },
          NOW,
        );
        expect(revoked).toEqual({ outcome: 'applied', key: { ...first!, isActive: false } });
        expect(await store.applyGuarded(first!.id, { kind: 'delete' }, NOW)).toEqual({
          outcome: 'applied',
          key: null,
        });
        expect(await store.applyGuarded(second!.id, { kind: 'delete' }, NOW)).toEqual({
          outcome: 'last_admin',
        });
      });

      it('does not count an expired, revoked, scoped, chat-limited, IP-restricted or non-admin key as the other admin', async () => {
        const [only] = await seed(
          admin(),
          admin({ expiresAt: at(-1) }),
          admin({ expiresAt: at(0) }),
          admin({ isActive: false }),
          admin({ allowedSessions: ['s-1'] }),
          admin({ allowedChats: ['15550001111@c.us'] }),
          admin({ allowedIps: ['10.0.0.0/8'] }),
          anApiKey({ role: 'operator' }),
        );
        expect(await store.applyGuarded(only!.id, { kind: 'delete' }, NOW)).toEqual({
          outcome: 'last_admin',
        });
        const scoping = { kind: 'update' as const, patch: { allowedIps: ['10.0.0.1'] } };
        expect(await store.applyGuarded(only!.id, scoping, NOW)).toEqual({ outcome: 'last_admin' });
        const limiting = { kind: 'update' as const, patch: { allowedChats: ['15550001111@c.us'] } };
        expect(await store.applyGuarded(only!.id, limiting, NOW)).toEqual({ outcome: 'last_admin' });
      });

      it('allows scoping or IP-restricting an admin while another usable admin exists', async () => {
        const [first, second] = await seed(admin(), admin());
        const scoped = await store.applyGuarded(
          first!.id,
          { kind: 'update', patch: { allowedSessions: ['s-1'] } },
          NOW,
        );
        expect(scoped).toEqual({ outcome: 'applied', key: { ...first!, allowedSessions: ['s-1'] } });
        // The scoped one no longer counts, so the second is now the last usable admin.
        const restricted = await store.applyGuarded(
          second!.id,
          { kind: 'update', patch: { allowedIps: ['10.0.0.1'] } },
          NOW,
        );
        expect(restricted).toEqual({ outcome: 'last_admin' });
        expect(await store.findById(second!.id)).toEqual(second);
      });

      it('judges expiry at the given instant, not the wall clock', async () => {
        const [first] = await seed(admin(), admin({ expiresAt: at(60) }));
        const later = new Date(T0.getTime() + 120_000);
        expect(await store.applyGuarded(first!.id, { kind: 'delete' }, later)).toEqual({
          outcome: 'last_admin',
        });
        expect(await store.applyGuarded(first!.id, { kind: 'delete' }, NOW)).toMatchObject({
          outcome: 'applied',
        });
      });

      it('allows changes that keep the last admin usable (rename, future expiry, empty lists)', async () => {
        const [only] = await seed(admin());
        const patch = { name: 'still-admin', expiresAt: at(3600), allowedIps: [], allowedSessions: [] };
        const result = await store.applyGuarded(only!.id, { kind: 'update', patch }, NOW);
        expect(result).toEqual({ outcome: 'applied', key: { ...only!, ...patch } });
      });

      it('allows changing or deleting an admin key that is already unusable', async () => {
        const [revoked, , scoped] = await seed(
          admin({ isActive: false }),
          admin({ expiresAt: at(-10) }),
          admin({ allowedSessions: ['s-1'] }),
        );
        const demoted = await store.applyGuarded(
          revoked!.id,
          { kind: 'update', patch: { role: 'viewer' } },
          NOW,
        );
        expect(demoted).toMatchObject({ outcome: 'applied', key: { role: 'viewer' } });
        expect(await store.applyGuarded(revoked!.id, { kind: 'delete' }, NOW)).toMatchObject({
          outcome: 'applied',
        });
        const rescoped = await store.applyGuarded(
          scoped!.id,
          { kind: 'update', patch: { allowedSessions: ['s-2'] } },
          NOW,
        );
        expect(rescoped).toMatchObject({ outcome: 'applied', key: { allowedSessions: ['s-2'] } });
        expect(await store.applyGuarded(scoped!.id, { kind: 'delete' }, NOW)).toMatchObject({
          outcome: 'applied',
        });
      });

      it('counts an admin with empty allowlists as usable, like one with none', async () => {
        const [first] = await seed(admin(), admin({ allowedIps: [], allowedSessions: [] }));
        expect(await store.applyGuarded(first!.id, { kind: 'delete' }, NOW)).toMatchObject({
          outcome: 'applied',
        });
      });

      it('lets a scoped admin be unscoped again, making it a usable admin', async () => {
        const [scoped] = await seed(admin({ allowedSessions: ['s-1'], allowedIps: ['10.0.0.1'] }));
        const patch = { allowedSessions: null, allowedIps: null };
        const opened = await store.applyGuarded(scoped!.id, { kind: 'update', patch }, NOW);
        expect(opened).toEqual({ outcome: 'applied', key: { ...scoped!, ...patch } });
        expect(await store.applyGuarded(scoped!.id, { kind: 'delete' }, NOW)).toEqual({
          outcome: 'last_admin',
        });
      });

      it('allows promoting a key to admin and reactivating a revoked admin', async () => {
        const [op, off] = await seed(anApiKey(), admin({ isActive: false }));
        const promoted = await store.applyGuarded(op!.id, { kind: 'update', patch: { role: 'admin' } }, NOW);
        expect(promoted).toMatchObject({ outcome: 'applied', key: { role: 'admin' } });
        const back = await store.applyGuarded(off!.id, { kind: 'update', patch: { isActive: true } }, NOW);
        expect(back).toMatchObject({ outcome: 'applied', key: { isActive: true } });
      });
    });

    apiKeyUsageContract(() => store);
  });
}
