/**
 * Behaviour every TemplateStore adapter must show: templates scoped to their session, names unique per session
 * (also when creates and renames race), a per-session cap, newest-first lists, lookups by name, and patches of the
 * listed fields.
 */
import { ConflictError } from '#shared/errors/app-error.js';
import type { SessionStore } from '#shared/ports/session-store.port.js';
import type { TemplateStore } from '#shared/ports/template-store.port.js';
import { aSession, aTemplate, at } from '#tests/helpers/builders.js';
import { perSessionCapTests } from './per-session-cap.js';
import { sessionScopedRecordTests } from './session-scoped-records.js';

/** The store under test plus the session store of the same data store, because templates belong to sessions. */
export interface OpenedTemplateStore {
  store: TemplateStore;
  sessions: SessionStore;
  close(): Promise<void>;
}

const NO_CAP = { maxPerSession: 0 };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const NAME_TAKEN = { status: 409, code: 'TEMPLATE_NAME_TAKEN' };

export function templateStoreContract(name: string, open: () => Promise<OpenedTemplateStore>): void {
  describe(`TemplateStore contract: ${name}`, () => {
    let store: TemplateStore;
    let close: () => Promise<void>;
    let s1: string;
    let s2: string;

    beforeEach(async () => {
      const opened = await open();
      ({ store, close } = opened);
      const sessions = [aSession(), aSession()];
      for (const session of sessions) await opened.sessions.create(session);
      [s1, s2] = sessions.map((session) => session.id) as [string, string];
    });
    afterEach(async () => {
      await close();
    });

    async function seed(...templates: ReturnType<typeof aTemplate>[]) {
      for (const template of templates) await store.create(template, NO_CAP);
      return templates;
    }

    describe('create, find and list', () => {
      it('finds a created template by id and by name with every field intact', async () => {
        const template = aTemplate({
          sessionId: s1,
          name: 'Order shipped ✈',
          body: 'Hi {{ name }},\nyour order {{order.id}} left today.',
          header: '*Acme*',
          footer: 'Reply STOP to opt out',
          createdAt: at(1),
          updatedAt: at(2),
        });
        await store.create(template, { maxPerSession: 32 });
        expect(await store.findById(s1, template.id)).toEqual(template);
        expect(await store.findByName(s1, template.name)).toEqual(template);
      });

      it("answers null for an unknown id or name, another session's template, and another case of a name", async () => {
        const [template] = await seed(aTemplate({ sessionId: s1, name: 'Welcome' }));
        expect(await store.findById(s1, UNKNOWN)).toBeNull();
        expect(await store.findById(s2, template!.id)).toBeNull();
        expect(await store.findByName(s1, 'nope')).toBeNull();
        expect(await store.findByName(s2, 'Welcome')).toBeNull();
        expect(await store.findByName(s1, 'welcome')).toBeNull();
      });

      it('rejects a taken id with ConflictError, keeping the first', async () => {
        const [first] = await seed(aTemplate({ sessionId: s1 }));
        const clash = aTemplate({ sessionId: s1, id: first!.id, body: 'other' });
        await expect(store.create(clash, NO_CAP)).rejects.toBeInstanceOf(ConflictError);
        expect(await store.findById(s1, first!.id)).toEqual(first);
        expect(await store.listBySession(s1)).toEqual([first]);
      });

      it('rejects a name the session uses with TEMPLATE_NAME_TAKEN; another session or case may use it', async () => {
        const [first] = await seed(aTemplate({ sessionId: s1, name: 'greeting' }));
        const clash = store.create(aTemplate({ sessionId: s1, name: 'greeting' }), NO_CAP);
        await expect(clash).rejects.toBeInstanceOf(ConflictError);
        await expect(
          store.create(aTemplate({ sessionId: s1, name: 'greeting' }), NO_CAP),
        ).rejects.toMatchObject(NAME_TAKEN);
        await seed(
          aTemplate({ sessionId: s2, name: 'greeting' }),
          aTemplate({ sessionId: s1, name: 'Greeting' }),
        );
        expect(await store.findByName(s1, 'greeting')).toEqual(first);
        expect(await store.listBySession(s1)).toHaveLength(2);
      });

      it('lets exactly one of racing creates take a name', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, () => store.create(aTemplate({ sessionId: s1, name: 'race' }), NO_CAP)),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        for (const result of results) {
          if (result.status === 'rejected') expect(result.reason).toMatchObject(NAME_TAKEN);
        }
        expect(await store.listBySession(s1)).toHaveLength(1);
      });

      it('hands out copies: mutating an argument or a result does not change the store', async () => {
        const template = aTemplate({ sessionId: s1, header: 'head' });
        await seed(template);
        const stored = { ...template };
        template.body = 'changed';
        const found = await store.findById(s1, template.id);
        found!.header = 'changed';
        (await store.listBySession(s1))[0]!.name = 'changed';
        expect(await store.findById(s1, template.id)).toEqual(stored);
      });
    });

    describe('scoped to the session', () => {
      sessionScopedRecordTests({
        make: (fields) => aTemplate(fields),
        create: (template) => store.create(template, NO_CAP),
        list: (sessionId) => store.listBySession(sessionId),
        delete: (sessionId, id) => store.delete(sessionId, id),
        deleteBySession: (sessionId) => store.deleteBySession(sessionId),
        sessions: () => [s1, s2],
        order: 'newest first',
      });
    });

    describe('per-session cap', () => {
      perSessionCapTests({
        make: (sessionId) => aTemplate({ sessionId }),
        create: (template, maxPerSession) => store.create(template, { maxPerSession }),
        remove: async (template) => {
          await store.delete(template.sessionId, template.id);
        },
        count: async (sessionId) => (await store.listBySession(sessionId)).length,
        sessions: () => [s1, s2],
        code: 'TEMPLATE_LIMIT',
      });
    });

    describe('update', () => {
      it('applies only the listed fields, null clearing the header or footer, and answers the stored template', async () => {
        const [template] = await seed(
          aTemplate({ sessionId: s1, header: 'head', footer: 'foot', createdAt: at(1) }),
        );
        const patch = { name: 'renamed', body: 'New {{x}}', footer: null, updatedAt: at(5) };
        const sneaky = { ...patch, sessionId: s2, createdAt: at(9), id: UNKNOWN, header: undefined };
        const expected = { ...template!, ...patch };
        expect(await store.update(s1, template!.id, sneaky as never)).toEqual(expected);
        expect(await store.update(s1, template!.id, { header: null })).toEqual({ ...expected, header: null });
        expect(await store.update(s2, template!.id, { body: 'x' })).toBeNull();
        expect(await store.update(s1, UNKNOWN, { body: 'x' })).toBeNull();
        expect(await store.update(s1, UNKNOWN, { name: 'anything' })).toBeNull();
        expect(await store.findById(s1, template!.id)).toEqual({ ...expected, header: null });
        expect(await store.findByName(s1, 'renamed')).toEqual({ ...expected, header: null });
      });

      it('refuses a rename to a name another template of the session has, changing nothing', async () => {
        const [mine, theirs] = await seed(
          aTemplate({ sessionId: s1, name: 'mine' }),
          aTemplate({ sessionId: s1, name: 'theirs' }),
          aTemplate({ sessionId: s2, name: 'elsewhere' }),
        );
        await expect(store.update(s1, mine!.id, { name: 'theirs', body: 'b' })).rejects.toMatchObject(
          NAME_TAKEN,
        );
        expect(await store.findById(s1, mine!.id)).toEqual(mine);
        expect(await store.findByName(s1, 'theirs')).toEqual(theirs);
        expect(await store.update(s1, mine!.id, { name: 'mine', body: 'kept name' })).toMatchObject({
          name: 'mine',
          body: 'kept name',
        });
        expect(await store.update(s1, mine!.id, { name: 'elsewhere' })).toMatchObject({ name: 'elsewhere' });
      });

      it('frees the old name on a rename, so it can be taken again', async () => {
        const [template] = await seed(aTemplate({ sessionId: s1, name: 'before' }));
        await store.update(s1, template!.id, { name: 'after' });
        expect(await store.findByName(s1, 'before')).toBeNull();
        const [reuse] = await seed(aTemplate({ sessionId: s1, name: 'before' }));
        expect(await store.findByName(s1, 'before')).toEqual(reuse);
        expect((await store.findByName(s1, 'after'))?.id).toBe(template!.id);
      });

      it('lets exactly one of racing renames to one name win', async () => {
        const templates = await seed(...Array.from({ length: 4 }, () => aTemplate({ sessionId: s1 })));
        const results = await Promise.allSettled(
          templates.map((template) => store.update(s1, template.id, { name: 'wanted' })),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        const holders = (await store.listBySession(s1)).filter((template) => template.name === 'wanted');
        expect(holders).toHaveLength(1);
        expect(await store.findByName(s1, 'wanted')).toEqual(holders[0]);
      });
    });

    describe('delete', () => {
      it('frees the names of deleted templates, one by one or all of a session', async () => {
        const [one] = await seed(
          aTemplate({ sessionId: s1, name: 'one' }),
          aTemplate({ sessionId: s1, name: 'two' }),
        );
        expect(await store.delete(s1, one!.id)).toBe(true);
        expect(await store.findByName(s1, 'one')).toBeNull();
        await seed(aTemplate({ sessionId: s1, name: 'one' }));
        expect(await store.deleteBySession(s1)).toBe(2);
        expect(await store.findByName(s1, 'two')).toBeNull();
        await seed(aTemplate({ sessionId: s1, name: 'one' }), aTemplate({ sessionId: s1, name: 'two' }));
        expect(await store.listBySession(s1)).toHaveLength(2);
      });
    });
  });
}
