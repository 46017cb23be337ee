/**
 * /api/sessions/{sessionId}/templates: creation (validation, names unique per session, the per-session cap), reads
 * newest first, partial updates and renames, deletion (also with the session), and who may call them (operator keys,
 * a key's session scope).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { withGatewayDataStore } from '#tests/helpers/gateway-data-store.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { sessionResourceAccessTests } from './session-resource-access.js';
import {
  createSession,
  expectError,
  expectValidation,
  type SessionBody,
  UNKNOWN_ID,
} from './sessions-support.js';
import { idsOf } from './webhooks-support.js';

/** Exactly the fields of a template (openwa-facts §3 "Template"). */
const TEMPLATE_FIELDS = ['body', 'createdAt', 'footer', 'header', 'id', 'name', 'sessionId', 'updatedAt'];

interface TemplateBody {
  id: string;
  sessionId: string;
  name: string;
  body: string;
  header: string | null;
  footer: string | null;
  createdAt: string;
  updatedAt: string;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
let names = 0;

describe('message templates of a session', () => {
  let gw: TestGateway;
  let session: SessionBody;

  beforeAll(async () => {
    gw = await startTestGateway({ TEMPLATE_MAX_PER_SESSION: '3' });
    session = await createSession(gw);
  });
  afterAll(async () => {
    await gw.close();
  });

  const base = (sessionId = session.id) => `/api/sessions/${sessionId}/templates`;
  const post = (body: unknown, sessionId = session.id) => gw.request('POST', base(sessionId), { body });
  const get = (id: string, sessionId = session.id) =>
    gw.request<TemplateBody>('GET', `${base(sessionId)}/${id}`);
  const put = (id: string, body: unknown, sessionId = session.id) =>
    gw.request<TemplateBody>('PUT', `${base(sessionId)}/${id}`, { body });

  /** Creates a template (as the admin) and answers it; fails unless 201. */
  async function createTemplate(
    sessionId: string,
    body: Record<string, unknown> = {},
  ): Promise<TemplateBody> {
    names += 1;
    const res = await post({ name: `template-${names}`, body: 'Hello {{name}}', ...body }, sessionId);
    if (res.status !== 201) throw new Error(`template create failed: ${res.status} ${res.text}`);
    expect(Object.keys(res.body).sort()).toEqual(TEMPLATE_FIELDS);
    return res.body as TemplateBody;
  }

  it('POST creates a template (201) with the name trimmed and no header or footer by default', async () => {
    const own = await createSession(gw);
    const res = await post({ name: '  order shipped  ', body: 'Hi {{name}}, it is on its way.' }, own.id);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(TEMPLATE_FIELDS);
    expect(res.body).toMatchObject({
      sessionId: own.id,
      name: 'order shipped',
      body: 'Hi {{name}}, it is on its way.',
      header: null,
      footer: null,
    });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    expect((await get(res.body.id, own.id)).body).toEqual(res.body);
  });

  it('POST keeps a header, a footer and the longest texts', async () => {
    const own = await createSession(gw);
    const full = await createTemplate(own.id, { header: '*Acme*', footer: 'Reply STOP to opt out' });
    expect(full).toMatchObject({ header: '*Acme*', footer: 'Reply STOP to opt out' });
    const longest = await createTemplate(own.id, {
      name: 'n'.repeat(100),
      body: 'b'.repeat(4096),
      header: 'h'.repeat(1024),
      footer: 'f'.repeat(1024),
    });
    expect([
      longest.name.length,
      longest.body.length,
      longest.header?.length,
      longest.footer?.length,
    ]).toEqual([100, 4096, 1024, 1024]);
  });

  it('POST refuses a name the session uses with 409 TEMPLATE_NAME_TAKEN; other sessions and cases may use it', async () => {
    const [own, other] = [await createSession(gw), await createSession(gw)];
    const first = await createTemplate(own.id, { name: 'welcome' });
    const body = expectError(
      await post({ name: ' welcome ', body: 'again' }, own.id),
      409,
      'TEMPLATE_NAME_TAKEN',
    );
    expect(body.message).toContain("'welcome'");
    await createTemplate(other.id, { name: 'welcome' });
    await createTemplate(own.id, { name: 'Welcome' });
    expect(idsOf(await gw.request('GET', base(own.id)))).toContain(first.id);
    expect((await gw.request('GET', base(own.id))).body).toHaveLength(2);
  });

  it('GET lists the templates newest first; an update keeps a template’s place', async () => {
    const own = await createSession(gw);
    const first = await createTemplate(own.id);
    await pause();
    const second = await createTemplate(own.id);
    await pause();
    const third = await createTemplate(own.id);
    await createTemplate((await createSession(gw)).id);
    const list = () => gw.request('GET', base(own.id));
    expect(idsOf(await list())).toEqual([third.id, second.id, first.id]);
    expect((await put(first.id, { body: 'changed' }, own.id)).status).toBe(200);
    expect(idsOf(await list())).toEqual([third.id, second.id, first.id]);
    expect((await gw.request('GET', base((await createSession(gw)).id))).body).toEqual([]);
  });

  it('GET one: 404 for an unknown template and for a template of another session; 400 for an id that is no uuid', async () => {
    const other = await createSession(gw);
    const foreign = await createTemplate(other.id);
    expect(expectError(await get(UNKNOWN_ID), 404, 'NOT_FOUND').message).toContain(UNKNOWN_ID);
    expectError(await get(foreign.id), 404, 'NOT_FOUND');
    expectError(await put(foreign.id, { body: 'x' }), 404, 'NOT_FOUND');
    expectError(await gw.request('DELETE', `${base()}/${foreign.id}`), 404, 'NOT_FOUND');
    expect((await get(foreign.id, other.id)).body).toEqual(foreign);
    expectValidation(await get('not-a-uuid'), 'path.templateId');
  });

  it('PUT changes only the given fields; null clears the header or footer and is refused for name and body', async () => {
    const own = await createSession(gw);
    const template = await createTemplate(own.id, { header: 'head', footer: 'foot' });
    const res = await put(template.id, { body: 'New {{x}}', footer: null }, own.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...template, body: 'New {{x}}', footer: null, updatedAt: expect.any(String) });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(template.updatedAt));
    expect((await put(template.id, { header: null }, own.id)).body.header).toBeNull();
    expect((await put(template.id, { header: 'again' }, own.id)).body.header).toBe('again');
    for (const field of ['name', 'body']) {
      expectValidation(await put(template.id, { [field]: null }, own.id), `body.${field}`);
    }
    expectValidation(await put(template.id, { body: 'x'.repeat(4097) }, own.id), 'body.body');
    expectValidation(await put(template.id, { header: 'x'.repeat(1025) }, own.id), 'body.header');
    expectValidation(await put(template.id, { sessionId: UNKNOWN_ID }, own.id), 'body');
    expect((await put(template.id, {}, own.id)).status).toBe(200);
    expect((await get(template.id, own.id)).body).toMatchObject({
      body: 'New {{x}}',
      header: 'again',
      footer: null,
    });
  });

  it('PUT renames: 409 TEMPLATE_NAME_TAKEN for another template’s name (nothing changes), its own name is fine', async () => {
    const own = await createSession(gw);
    const mine = await createTemplate(own.id, { name: 'mine' });
    await createTemplate(own.id, { name: 'theirs' });
    expectError(await put(mine.id, { name: 'theirs', body: 'lost' }, own.id), 409, 'TEMPLATE_NAME_TAKEN');
    expect((await get(mine.id, own.id)).body).toEqual(mine);
    expect((await put(mine.id, { name: 'mine', body: 'kept' }, own.id)).body).toMatchObject({
      name: 'mine',
      body: 'kept',
    });
    expect((await put(mine.id, { name: 'renamed' }, own.id)).body.name).toBe('renamed');
    await createTemplate(own.id, { name: 'mine' });
  });

  it('DELETE answers 204, the template is gone and its name free again', async () => {
    const template = await createTemplate(session.id, { name: 'short-lived' });
    const res = await gw.request('DELETE', `${base()}/${template.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await get(template.id), 404, 'NOT_FOUND');
    expectError(await gw.request('DELETE', `${base()}/${template.id}`), 404, 'NOT_FOUND');
    await createTemplate(session.id, { name: 'short-lived' });
  });

  it.each([
    ['no name', { name: undefined }, 'body.name'],
    ['an empty name', { name: '   ' }, 'body.name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'body.name'],
    ['a line break in the name', { name: 'a\nb' }, 'body.name'],
    ['no body', { body: undefined }, 'body.body'],
    ['an empty body', { body: '' }, 'body.body'],
    ['a body over 4096 characters', { body: 'x'.repeat(4097) }, 'body.body'],
    ['a header over 1024 characters', { header: 'x'.repeat(1025) }, 'body.header'],
    ['a footer over 1024 characters', { footer: 'x'.repeat(1025) }, 'body.footer'],
    ['a header that is no string', { header: 5 }, 'body.header'],
    ['an unknown field', { variables: {} }, 'body'],
  ])('POST with %s is 400 VALIDATION_FAILED, and nothing is stored', async (_name, body, path) => {
    const own = await createSession(gw);
    expectValidation(await post({ name: 'template', body: 'text', ...body }, own.id), path);
    expect((await gw.request('GET', base(own.id))).body).toEqual([]);
  });

  it('a session holds at most TEMPLATE_MAX_PER_SESSION templates (400 TEMPLATE_LIMIT); a delete frees one', async () => {
    const [full, other] = [await createSession(gw), await createSession(gw)];
    const templates = [];
    for (let i = 0; i < 3; i++) templates.push(await createTemplate(full.id));
    expectError(await post({ name: 'one-too-many', body: 'b' }, full.id), 400, 'TEMPLATE_LIMIT');
    await createTemplate(other.id);
    expect((await gw.request('DELETE', `${base(full.id)}/${templates[1]?.id}`)).status).toBe(204);
    await createTemplate(full.id, { name: 'fits-again' });
  });

  it('deleting the session deletes its templates', async () => {
    const doomed = await createSession(gw);
    await createTemplate(doomed.id);
    await createTemplate(doomed.id);
    expect((await gw.request('DELETE', `/api/sessions/${doomed.id}`)).status).toBe(204);
    expectError(await gw.request('GET', base(doomed.id)), 404, 'NOT_FOUND');
    const left = await withGatewayDataStore(gw, (data) => data.templates.listBySession(doomed.id));
    expect(left).toEqual([]);
  });

  describe('access', () => {
    sessionResourceAccessTests({
      gw: () => gw,
      collection: 'templates',
      idParam: 'templateId',
      createBody: { name: 'n', body: 'b' },
      updateBody: { footer: 'f' },
      updated: (template) => template.footer === 'f',
      create: (sessionId) => createTemplate(sessionId, { name: 'not-yours' }),
    });
  });
});
