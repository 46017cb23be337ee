/**
 * Behaviour every SessionStore and TeardownFenceStore adapter must show: unique names, newest-first filtered
 * pages, oldest-first status sweeps, compare-and-set updates, node leases (session-lease.contract.ts), and fences
 * that expire.
 */
import type { Session } from '#shared/domain/session.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { SessionStore, TeardownFenceStore } from '#shared/ports/session-store.port.js';
import { aSession, at, T0 } from '#tests/helpers/builders.js';
import { sessionConfigContract } from './session-config.contract.js';
import { sessionLeaseContract } from './session-lease.contract.js';

export interface OpenedSessionStore {
  store: SessionStore;
  close(): Promise<void>;
}

export interface OpenedFenceStore {
  store: TeardownFenceStore;
  close(): Promise<void>;
}

const ALL = { limit: 1000, offset: 0 };

export function sessionStoreContract(name: string, open: () => Promise<OpenedSessionStore>): void {
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    async function seed(...sessions: Session[]): Promise<Session[]> {
      for (const session of sessions) await store.create(session);
      return sessions;
    }
    const ids = (sessions: Session[]): string[] => sessions.map((session) => session.id);

    describe('create and findById', () => {
      it('finds a created session with every field intact, unknown config keys included', async () => {
        const session = aSession({
          status: 'ready',
          phone: '4915112345678',
          pushName: 'Sales',
          config: { maxReconnectAttempts: 3, autoRejectCalls: true, custom: { nested: ['a', 1] } },
          proxyUrl: 'socks5://proxy:1080',
          proxyType: 'socks5',
          connectedAt: at(1),
          lastActiveAt: at(2),
          lastError: 'none yet',
          nodeId: 'node-a',
          nodeUrl: 'http://10.0.0.5:2886',
          claimedAt: at(3),
          leaseExpiresAt: at(33),
        });
        await store.create(session);
        expect(await store.findById(session.id)).toEqual(session);
      });

      it('answers null for an unknown id', async () => {
        expect(await store.findById('00000000-0000-4000-8000-000000000000')).toBeNull();
      });

      it('rejects a taken name with ConflictError SESSION_NAME_EXISTS and keeps the first', async () => {
        await seed(aSession({ name: 'sales' }));
        const clash = aSession({ name: 'sales' });
        await expect(store.create(clash)).rejects.toBeInstanceOf(ConflictError);
        await expect(store.create(clash)).rejects.toMatchObject({
          code: 'SESSION_NAME_EXISTS',
          status: 409,
          message: "Session name 'sales' already exists",
        });
        expect(await store.findById(clash.id)).toBeNull();
      });

      it('treats names case-sensitively', async () => {
        await seed(aSession({ name: 'sales' }));
        await expect(store.create(aSession({ name: 'Sales' }))).resolves.toBeUndefined();
      });

      it('rejects a taken id with ConflictError CONFLICT', async () => {
        const [first] = await seed(aSession());
        await expect(store.create(aSession({ id: first!.id }))).rejects.toMatchObject({ code: 'CONFLICT' });
      });

      it('hands out copies: mutating an argument or a result does not change the store', async () => {
        const session = aSession({ config: { autoRejectCalls: false } });
        await store.create(session);
        session.config.autoRejectCalls = true;
        const found = await store.findById(session.id);
        found!.config.autoRejectCalls = true;
        found!.status = 'ready';
        expect(await store.findById(session.id)).toMatchObject({
          status: 'created',
          config: { autoRejectCalls: false },
        });
      });
    });

    describe('list', () => {
      it('lists newest first, breaking createdAt ties by id descending', async () => {
        const old = aSession({ createdAt: at(0) });
        const tieA = aSession({ id: '10000000-0000-4000-8000-000000000000', createdAt: at(10) });
        const tieB = aSession({ id: '20000000-0000-4000-8000-000000000000', createdAt: at(10) });
        const newest = aSession({ createdAt: at(20) });
        await seed(tieA, newest, old, tieB);
        expect(ids(await store.list({}, ALL))).toEqual([newest.id, tieB.id, tieA.id, old.id]);
      });

      it('pages with limit and offset', async () => {
        const sessions = [0, 1, 2, 3, 4].map((n) => aSession({ createdAt: at(n) }));
        await seed(...sessions);
        const newestFirst = ids(sessions).reverse();
        expect(ids(await store.list({}, { limit: 2, offset: 0 }))).toEqual(newestFirst.slice(0, 2));
        expect(ids(await store.list({}, { limit: 2, offset: 3 }))).toEqual(newestFirst.slice(3, 5));
        expect(await store.list({}, { limit: 2, offset: 5 })).toEqual([]);
      });

      it('filters by ids, by exact name, and by both', async () => {
        const [a, b, c] = await seed(
          aSession({ name: 'alpha', createdAt: at(1) }),
          aSession({ name: 'beta', createdAt: at(2) }),
          aSession({ name: 'gamma', createdAt: at(3) }),
        );
        expect(ids(await store.list({ ids: [a!.id, c!.id, 'unknown'] }, ALL))).toEqual([c!.id, a!.id]);
        expect(ids(await store.list({ name: 'beta' }, ALL))).toEqual([b!.id]);
        expect(await store.list({ name: 'Beta' }, ALL)).toEqual([]);
        expect(ids(await store.list({ ids: [a!.id, b!.id], name: 'beta' }, ALL))).toEqual([b!.id]);
        expect(await store.list({ ids: [a!.id], name: 'beta' }, ALL)).toEqual([]);
      });

      it('matches nothing for an empty id list', async () => {
        await seed(aSession());
        expect(await store.list({ ids: [] }, ALL)).toEqual([]);
      });
    });

    describe('listByStatus and countByStatus', () => {
      it('lists sessions in any of the statuses, oldest first', async () => {
        const [late, , early] = await seed(
          aSession({ status: 'ready', createdAt: at(5) }),
          aSession({ status: 'created', createdAt: at(1) }),
          aSession({ status: 'qr_ready', createdAt: at(2) }),
        );
        expect(ids(await store.listByStatus(['ready', 'qr_ready']))).toEqual([early!.id, late!.id]);
        expect(await store.listByStatus([])).toEqual([]);
        expect(await store.listByStatus(['failed'])).toEqual([]);
      });

      it('counts per status, only statuses present, honouring the filter', async () => {
        const [r1, , c1] = await seed(
          aSession({ status: 'ready' }),
          aSession({ status: 'ready' }),
          aSession({ status: 'created', name: 'only-created' }),
        );
        expect(await store.countByStatus({})).toEqual({ ready: 2, created: 1 });
        expect(await store.countByStatus({ ids: [r1!.id, c1!.id] })).toEqual({ ready: 1, created: 1 });
        expect(await store.countByStatus({ name: 'only-created' })).toEqual({ created: 1 });
        expect(await store.countByStatus({ ids: [] })).toEqual({});
      });
    });

    describe('update', () => {
      it('merges the patch, returns the stored session and keeps id, createdAt and unpatched fields', async () => {
        const [session] = await seed(aSession({ phone: '111', config: { autoRejectCalls: true } }));
        const patch = { status: 'ready' as const, pushName: 'Bot', nodeId: 'n1', updatedAt: at(9) };
        const result = await store.update(session!.id, patch);
        expect(result).toEqual({ outcome: 'updated', session: { ...session!, ...patch } });
        expect(await store.findById(session!.id)).toEqual({ ...session!, ...patch });
      });

      it('clears fields patched to null and ignores fields patched to undefined', async () => {
        const [session] = await seed(aSession({ phone: '111', lastError: 'boom' }));
        await store.update(session!.id, { phone: null, lastError: undefined });
        expect(await store.findById(session!.id)).toMatchObject({ phone: null, lastError: 'boom' });
      });

      it('replaces config as a whole', async () => {
        const [session] = await seed(aSession({ config: { autoRejectCalls: true, extra: 1 } }));
        await store.update(session!.id, { config: { reconnectBaseDelay: 2000 } });
        expect((await store.findById(session!.id))!.config).toEqual({ reconnectBaseDelay: 2000 });
      });

      it('answers not_found for an unknown id, with or without expectStatus', async () => {
        const missing = '00000000-0000-4000-8000-000000000000';
        expect(await store.update(missing, { status: 'ready' })).toEqual({ outcome: 'not_found' });
        expect(await store.update(missing, { status: 'ready' }, { expectStatus: ['created'] })).toEqual({
          outcome: 'not_found',
        });
      });

      it('rejects renaming to a taken name with SESSION_NAME_EXISTS and writes nothing', async () => {
        const [, session] = await seed(aSession({ name: 'taken' }), aSession({ name: 'mine' }));
        await expect(store.update(session!.id, { name: 'taken', status: 'ready' })).rejects.toMatchObject({
          code: 'SESSION_NAME_EXISTS',
          message: "Session name 'taken' already exists",
        });
        expect(await store.findById(session!.id)).toEqual(session);
      });

      it('allows keeping its own name and renaming to a free one', async () => {
        const [session] = await seed(aSession({ name: 'mine' }));
        expect(await store.update(session!.id, { name: 'mine' })).toMatchObject({ outcome: 'updated' });
        expect(await store.update(session!.id, { name: 'renamed' })).toMatchObject({
          outcome: 'updated',
          session: { name: 'renamed' },
        });
      });

      it('writes when the current status is one of expectStatus', async () => {
        const [session] = await seed(aSession({ status: 'disconnected' }));
        const result = await store.update(
          session!.id,
          { status: 'initializing' },
          { expectStatus: ['created', 'disconnected'] },
        );
        expect(result).toMatchObject({ outcome: 'updated', session: { status: 'initializing' } });
      });

      it('answers conflict with the current row and writes nothing when the status does not match', async () => {
        const [session] = await seed(aSession({ status: 'ready' }));
        const result = await store.update(
          session!.id,
          { status: 'initializing', phone: '9' },
          { expectStatus: ['created'] },
        );
        expect(result).toEqual({ outcome: 'conflict', session });
        expect(await store.findById(session!.id)).toEqual(session);
        expect(await store.update(session!.id, { status: 'failed' }, { expectStatus: [] })).toMatchObject({
          outcome: 'conflict',
        });
      });

      it('lets exactly one of two concurrent compare-and-set starts win', async () => {
        const [session] = await seed(aSession({ status: 'created' }));
        const start = (node: string) =>
          store.update(session!.id, { status: 'initializing', nodeId: node }, { expectStatus: ['created'] });
        const results = await Promise.all([start('a'), start('b')]);
        expect(results.map((r) => r.outcome).sort()).toEqual(['conflict', 'updated']);
        const winner = results.find((r) => r.outcome === 'updated') as { session: Session };
        expect((await store.findById(session!.id))!.nodeId).toBe(winner.session.nodeId);
      });
    });

    describe('delete', () => {
      it('deletes the row and answers true, then false', async () => {
        const [session, other] = await seed(aSession(), aSession());
        expect(await store.delete(session!.id)).toBe(true);
        expect(await store.findById(session!.id)).toBeNull();
        expect(await store.delete(session!.id)).toBe(false);
        expect(ids(await store.list({}, ALL))).toEqual([other!.id]);
      });

      it('frees the name for a new session', async () => {
        const [session] = await seed(aSession({ name: 'reuse' }));
        await store.delete(session!.id);
        await expect(store.create(aSession({ name: 'reuse' }))).resolves.toBeUndefined();
      });
    });
  });

  sessionLeaseContract(name, open);
  sessionConfigContract(name, open);
}

export function teardownFenceStoreContract(name: string, open: () => Promise<OpenedFenceStore>): void {
  describe(`TeardownFenceStore contract: ${name}`, () => {
    let store: TeardownFenceStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    const plus = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

    it('reports no fence for a name never fenced', async () => {
      expect(await store.isActive('sales', T0)).toBe(false);
    });

    it('is active before its expiry and inactive from the expiry on', async () => {
      await store.put('sales', plus(10));
      expect(await store.isActive('sales', T0)).toBe(true);
      expect(await store.isActive('sales', plus(9.999))).toBe(true);
      expect(await store.isActive('sales', plus(10))).toBe(false);
      expect(await store.isActive('sales', plus(60))).toBe(false);
    });

    it('fences one name only, case-sensitively', async () => {
      await store.put('sales', plus(10));
      expect(await store.isActive('support', T0)).toBe(false);
      expect(await store.isActive('Sales', T0)).toBe(false);
    });

    it('replaces the expiry on a second put, shorter or longer', async () => {
      await store.put('sales', plus(100));
      await store.put('sales', plus(5));
      expect(await store.isActive('sales', plus(6))).toBe(false);
      await store.put('sales', plus(200));
      expect(await store.isActive('sales', plus(150))).toBe(true);
    });

    it('clears a fence, and clearing an unknown name is a no-op', async () => {
      await store.put('sales', plus(10));
      await store.put('support', plus(10));
      await store.clear('sales');
      await store.clear('never-fenced');
      expect(await store.isActive('sales', T0)).toBe(false);
      expect(await store.isActive('support', T0)).toBe(true);
    });
  });
}
