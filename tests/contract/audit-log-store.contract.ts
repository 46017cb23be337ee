/**
 * Behaviour every AuditLogStore adapter must show: append-only batches that skip known ids (so a retried write
 * stores nothing twice), newest-first filtered pages with an unpaginated total, session scoping, and pruning by age.
 */
import type { AuditEntry } from '#shared/domain/audit.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import { anAuditEntry, at, T0 } from '#tests/helpers/builders.js';

export interface OpenedAuditLogStore {
  store: AuditLogStore;
  close(): Promise<void>;
}

const ALL = { limit: 1000, offset: 0 };

export function auditLogStoreContract(name: string, open: () => Promise<OpenedAuditLogStore>): void {
  describe(`AuditLogStore contract: ${name}`, () => {
    let store: AuditLogStore;
    let close: () => Promise<void>;

    beforeEach(async () => {
      ({ store, close } = await open());
    });
    afterEach(async () => {
      await close();
    });

    const ids = (page: { data: AuditEntry[] }): string[] => page.data.map((entry) => entry.id);

    describe('append', () => {
      it('stores every field, nested metadata included', async () => {
        const entry = anAuditEntry({
          action: 'api_key_auth_failed',
          severity: 'warn',
          apiKeyId: 'key-1',
          apiKeyName: 'ops key',
          sessionId: 'sess-1',
          sessionName: 'sales',
          ipAddress: '203.0.113.9',
          userAgent: 'curl/8',
          method: 'POST',
          path: '/api/sessions',
          statusCode: 401,
          metadata: { requestId: 'r-1', nested: { list: [1, 'two', null], flag: true } },
          errorMessage: 'Invalid API key',
        });
        await store.append([entry]);
        expect(await store.query({}, ALL)).toEqual({ data: [entry], total: 1 });
      });

      it('accepts an empty batch', async () => {
        await store.append([]);
        expect(await store.query({}, ALL)).toEqual({ data: [], total: 0 });
      });

      it('skips an entry whose id is stored already, keeping the stored one, and writes the rest', async () => {
        const first = anAuditEntry({ createdAt: at(0) });
        await store.append([first]);
        const fresh = anAuditEntry({ createdAt: at(1) });
        await store.append([anAuditEntry({ id: first.id, action: 'session_deleted' }), fresh]);
        expect(await store.query({}, ALL)).toEqual({ data: [fresh, first], total: 2 });
      });

      it('stores a retried batch once: appending the same entries again changes nothing', async () => {
        const batch = [0, 1, 2].map((n) => anAuditEntry({ createdAt: at(n) }));
        await store.append(batch);
        await store.append(batch);
        expect(await store.query({}, ALL)).toEqual({ data: [...batch].reverse(), total: 3 });
      });

      it('completes a large batch of which a part had landed, storing each entry once', async () => {
        const batch = Array.from({ length: 150 }, (_, n) => anAuditEntry({ createdAt: at(n) }));
        await store.append(batch.slice(40, 120));
        await store.append(batch);
        const stored = await store.query({}, ALL);
        expect(stored.total).toBe(150);
        expect(ids(stored)).toEqual(ids({ data: [...batch].reverse() }));
      });

      it('stores the first of two entries with one id in the same batch', async () => {
        const first = anAuditEntry({ action: 'session_started' });
        await store.append([first, { ...first, action: 'session_stopped' }]);
        expect(await store.query({}, ALL)).toEqual({ data: [first], total: 1 });
      });

      it('hands out copies: mutating an argument or a result does not change the store', async () => {
        const entry = anAuditEntry({ metadata: { count: 1 } });
        await store.append([entry]);
        entry.metadata!.count = 2;
        const [found] = (await store.query({}, ALL)).data;
        found!.metadata!.count = 3;
        expect((await store.query({}, ALL)).data[0]!.metadata).toEqual({ count: 1 });
      });
    });

    describe('query', () => {
      it('orders newest first, breaking createdAt ties by id descending', async () => {
        await store.append([
          anAuditEntry({ id: 'b', createdAt: at(10) }),
          anAuditEntry({ id: 'old', createdAt: at(0) }),
          anAuditEntry({ id: 'new', createdAt: at(20) }),
          anAuditEntry({ id: 'a', createdAt: at(10) }),
        ]);
        expect(ids(await store.query({}, ALL))).toEqual(['new', 'b', 'a', 'old']);
      });

      it('pages with limit and offset and reports the unpaginated total', async () => {
        const entries = [0, 1, 2, 3, 4].map((n) => anAuditEntry({ id: `e${n}`, createdAt: at(n) }));
        await store.append(entries);
        expect(await store.query({}, { limit: 2, offset: 0 })).toMatchObject({ total: 5 });
        expect(ids(await store.query({}, { limit: 2, offset: 0 }))).toEqual(['e4', 'e3']);
        expect(ids(await store.query({}, { limit: 2, offset: 2 }))).toEqual(['e2', 'e1']);
        expect(ids(await store.query({}, { limit: 2, offset: 4 }))).toEqual(['e0']);
        expect(await store.query({}, { limit: 2, offset: 9 })).toEqual({ data: [], total: 5 });
      });

      it('filters by action, severity, sessionId and apiKeyId', async () => {
        await store.append([
          anAuditEntry({ id: 'created', action: 'session_created', sessionId: 's1', apiKeyId: 'k1' }),
          anAuditEntry({ id: 'deleted', action: 'session_deleted', sessionId: 's2', apiKeyId: 'k1' }),
          anAuditEntry({ id: 'failed', action: 'api_key_auth_failed', severity: 'warn', apiKeyId: 'k2' }),
        ]);
        expect(ids(await store.query({ action: 'session_deleted' }, ALL))).toEqual(['deleted']);
        expect(ids(await store.query({ severity: 'warn' }, ALL))).toEqual(['failed']);
        expect(ids(await store.query({ sessionId: 's1' }, ALL))).toEqual(['created']);
        expect(ids(await store.query({ apiKeyId: 'k2' }, ALL))).toEqual(['failed']);
        expect(await store.query({ action: 'message_sent' }, ALL)).toEqual({ data: [], total: 0 });
      });

      it('combines filters with AND, and the total follows the filter', async () => {
        await store.append([
          anAuditEntry({
            id: 'x',
            action: 'session_started',
            sessionId: 's1',
            apiKeyId: 'k1',
            createdAt: at(1),
          }),
          anAuditEntry({
            id: 'y',
            action: 'session_started',
            sessionId: 's1',
            apiKeyId: 'k2',
            createdAt: at(2),
          }),
          anAuditEntry({
            id: 'z',
            action: 'session_stopped',
            sessionId: 's1',
            apiKeyId: 'k1',
            createdAt: at(3),
          }),
        ]);
        const page = await store.query({ action: 'session_started', sessionId: 's1', apiKeyId: 'k1' }, ALL);
        expect(page).toMatchObject({ total: 1 });
        expect(ids(page)).toEqual(['x']);
        expect(await store.query({ action: 'session_started' }, { limit: 1, offset: 0 })).toMatchObject({
          total: 2,
        });
      });

      it('limits a scoped query to entries of the given sessions, excluding entries without a session', async () => {
        await store.append([
          anAuditEntry({ id: 'in1', sessionId: 's1', createdAt: at(1) }),
          anAuditEntry({ id: 'in2', sessionId: 's2', createdAt: at(2) }),
          anAuditEntry({ id: 'out', sessionId: 's3', createdAt: at(3) }),
          anAuditEntry({ id: 'none', sessionId: null, createdAt: at(4) }),
        ]);
        const scoped = await store.query({ sessionIds: ['s1', 's2'] }, ALL);
        expect(scoped).toMatchObject({ total: 2 });
        expect(ids(scoped)).toEqual(['in2', 'in1']);
        expect(ids(await store.query({ sessionIds: ['s1', 's2'], sessionId: 's2' }, ALL))).toEqual(['in2']);
        expect(ids(await store.query({ sessionIds: ['s1'], sessionId: 's3' }, ALL))).toEqual([]);
      });

      it('matches nothing for an empty session scope', async () => {
        await store.append([anAuditEntry({ sessionId: 's1' }), anAuditEntry()]);
        expect(await store.query({ sessionIds: [] }, ALL)).toEqual({ data: [], total: 0 });
      });
    });

    describe('pruneOlderThan', () => {
      it('deletes entries strictly older than the cutoff and answers how many', async () => {
        await store.append([
          anAuditEntry({ id: 'old1', createdAt: at(-20) }),
          anAuditEntry({ id: 'old2', createdAt: at(-1) }),
          anAuditEntry({ id: 'edge', createdAt: at(0) }),
          anAuditEntry({ id: 'new', createdAt: at(5) }),
        ]);
        expect(await store.pruneOlderThan(T0, 100)).toBe(2);
        expect(ids(await store.query({}, ALL))).toEqual(['new', 'edge']);
      });

      it('deletes at most `limit` entries a call, oldest first, of every session', async () => {
        await store.append([
          anAuditEntry({ id: 'b-second', sessionId: 's1', createdAt: at(-20) }),
          anAuditEntry({ id: 'a-first', sessionId: 's2', createdAt: at(-30) }),
          anAuditEntry({ id: 'c-third', createdAt: at(-10) }),
          anAuditEntry({ id: 'kept', sessionId: 's1', createdAt: at(1) }),
        ]);
        expect(await store.pruneOlderThan(T0, 1)).toBe(1);
        expect(ids(await store.query({}, ALL))).toEqual(['kept', 'c-third', 'b-second']);
        expect(await store.pruneOlderThan(T0, 2)).toBe(2);
        expect(await store.pruneOlderThan(T0, 2)).toBe(0);
        expect(ids(await store.query({}, ALL))).toEqual(['kept']);
      });

      it('answers 0 when nothing is old enough', async () => {
        await store.append([anAuditEntry({ createdAt: at(1) })]);
        expect(await store.pruneOlderThan(T0, 100)).toBe(0);
        expect(await store.query({}, ALL)).toMatchObject({ total: 1 });
      });
    });
  });
}
