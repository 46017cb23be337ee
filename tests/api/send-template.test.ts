/**
 * POST /api/sessions/{sessionId}/messages/send-template: a stored template, named by id or by name, rendered with
 * the request's variables and sent like send-text (the row's body is the rendered text, `metadata.template` says
 * which template); missing variables, an over-long text, unknown templates and callers without the right are refused
 * before anything is stored or sent.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitForStatus } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, UNKNOWN_ID } from './sessions-support.js';

const CONTACT = '15557770001@c.us';

interface TemplateBody {
  id: string;
  name: string;
}

describe('messages: send-template', () => {
  let gw: TestGateway;
  let sessionId: string;
  let order: TemplateBody;
  let greet: TemplateBody;

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await gw.createSession()).id;
    gw.network.storeCredentials(sessionId, { phone: '15550003333', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${sessionId}/start`);
    await waitForStatus(gw, sessionId, 'ready');
    order = await createTemplate(sessionId, {
      name: 'order shipped',
      header: '*{{shop}}*',
      body: 'Hi {{ name }}, order {{order.id}} is on its way.',
      footer: 'Reply STOP to opt out',
    });
    greet = await createTemplate(sessionId, { name: 'greet', body: 'Welcome @{{number}}!' });
  });
  afterAll(async () => {
    await gw.close();
  });

  async function createTemplate(session: string, body: Record<string, unknown>): Promise<TemplateBody> {
    const res = await gw.request('POST', `/api/sessions/${session}/templates`, { body });
    if (res.status !== 201) throw new Error(`template create failed: ${res.status} ${res.text}`);
    return res.body;
  }
  const send = (body: unknown, key?: string, id = sessionId) =>
    gw.request('POST', `/api/sessions/${id}/messages/send-template`, { body, ...(key ? { key } : {}) });
  const historyTotal = async () =>
    (await gw.request('GET', `/api/sessions/${sessionId}/messages`)).body.total as number;
  const sentCount = () => (gw.network.sent.get(sessionId) ?? []).length;
  const VARIABLES = { shop: 'Acme', name: 'Ann', 'order.id': 'A-17' };
  const RENDERED = '*Acme*\n\nHi Ann, order A-17 is on its way.\n\nReply STOP to opt out';

  it('renders the template named by id and sends it like send-text: 201 with the row, marked with the template', async () => {
    const res = await send({ chatId: CONTACT, templateId: order.id, variables: VARIABLES });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      sessionId,
      chatId: CONTACT,
      from: '15550003333@c.us',
      to: CONTACT,
      body: RENDERED,
      type: 'text',
      direction: 'outgoing',
      status: 'sent',
      metadata: { template: { id: order.id, name: 'order shipped' } },
    });
    expect((gw.network.sent.get(sessionId) ?? []).at(-1)).toEqual({
      chatId: CONTACT,
      content: { type: 'text', text: RENDERED },
      waMessageId: res.body.waMessageId,
      timestamp: res.body.timestamp,
    });
    const history = (
      await gw.request('GET', `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(CONTACT)}`)
    ).body;
    expect(history.messages.find((m: { id: string }) => m.id === res.body.id)).toEqual(res.body);
  });

  it('finds the template by name (trimmed), and sends mentions the rendered text carries', async () => {
    const mention = '15557770009@c.us';
    const res = await send({
      chatId: CONTACT,
      templateName: '  greet ',
      variables: { number: '15557770009', unused: 'ignored' },
      mentions: [mention],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      body: 'Welcome @15557770009!',
      status: 'sent',
      metadata: { mentions: [mention], template: { id: greet.id, name: 'greet' } },
    });
    expect((gw.network.sent.get(sessionId) ?? []).at(-1)?.content).toEqual({
      type: 'text',
      text: 'Welcome @15557770009!',
      mentions: [mention],
    });
  });

  it('refuses missing variables with 400 TEMPLATE_VARIABLES_MISSING naming each, storing and sending nothing', async () => {
    const [before, sent] = [await historyTotal(), sentCount()];
    const res = await send({ chatId: CONTACT, templateId: order.id, variables: { name: 'Ann' } });
    const body = expectError(res, 400, 'TEMPLATE_VARIABLES_MISSING');
    expect(body.message).toBe('Template variables missing: shop, order.id');
    expect(body.details).toEqual({ missing: ['shop', 'order.id'] });
    expect(
      expectError(
        await send({ chatId: CONTACT, templateName: 'order shipped' }),
        400,
        'TEMPLATE_VARIABLES_MISSING',
      ).message,
    ).toBe('Template variables missing: shop, name, order.id');
    expect([await historyTotal(), sentCount()]).toEqual([before, sent]);
  });

  it('refuses a rendered text over 4096 characters with 400 TEMPLATE_RENDER_TOO_LONG naming its length', async () => {
    const long = await createTemplate(sessionId, { name: 'long', body: '{{a}}{{b}}' });
    const before = await historyTotal();
    const res = await send({
      chatId: CONTACT,
      templateId: long.id,
      variables: { a: 'x'.repeat(4000), b: 'y'.repeat(97) },
    });
    const body = expectError(res, 400, 'TEMPLATE_RENDER_TOO_LONG');
    expect(body.message).toBe('Rendered template is 4097 characters, over the 4096-character limit');
    expect(await historyTotal()).toBe(before);
    const fits = await send({
      chatId: CONTACT,
      templateId: long.id,
      variables: { a: 'x'.repeat(4000), b: 'y'.repeat(96) },
    });
    expect([fits.status, fits.body.body?.length]).toEqual([201, 4096]);
  });

  it('answers 404 for an unknown template id or name, another session’s template, and an unknown session', async () => {
    const other = (await gw.createSession()).id;
    const foreign = await createTemplate(other, { name: 'foreign', body: 'x' });
    expect(
      expectError(await send({ chatId: CONTACT, templateId: UNKNOWN_ID }), 404, 'NOT_FOUND').message,
    ).toContain(UNKNOWN_ID);
    expect(
      expectError(await send({ chatId: CONTACT, templateName: 'nope' }), 404, 'NOT_FOUND').message,
    ).toContain('nope');
    expectError(await send({ chatId: CONTACT, templateId: foreign.id }), 404, 'NOT_FOUND');
    expectError(await send({ chatId: CONTACT, templateName: 'foreign' }), 404, 'NOT_FOUND');
    expectError(
      await send({ chatId: CONTACT, templateName: 'ORDER SHIPPED', variables: VARIABLES }),
      404,
      'NOT_FOUND',
    );
    const unknownSession = expectError(
      await send({ chatId: CONTACT, templateId: order.id }, undefined, UNKNOWN_ID),
      404,
      'NOT_FOUND',
    );
    expect(unknownSession.message).toContain('Session');
  });

  it.each([
    [{ chatId: CONTACT }, 'neither templateId nor templateName', 'body.templateId'],
    // Two closed shapes (the document's oneOf): the one by id says the name does not belong beside it.
    [{ chatId: CONTACT, templateId: UNKNOWN_ID, templateName: 'order shipped' }, 'both', 'body'],
    [{ chatId: CONTACT, templateId: 'nope' }, 'a templateId that is no uuid', 'body.templateId'],
    [{ chatId: 'nope', templateName: 'order shipped' }, 'a malformed chatId', 'body.chatId'],
    [{ chatId: CONTACT, templateName: 'greet', vars: { number: '1' } }, '`vars` for `variables`', 'body'],
    [
      { chatId: CONTACT, templateName: 'greet', variables: { number: 5 } },
      'a value that is no string',
      'body.variables.number',
    ],
    [{ chatId: CONTACT, templateName: 'greet', variables: ['5'] }, 'variables as a list', 'body.variables'],
  ])('refuses %j with 400 VALIDATION_FAILED (%s)', async (body, _why, path) => {
    expectValidation(await send(body), path);
  });

  it('refuses a mention the rendered text lacks, and a session that is not ready, storing nothing', async () => {
    const before = await historyTotal();
    const res = await send({
      chatId: CONTACT,
      templateName: 'greet',
      variables: { number: '15557770001' },
      mentions: ['15557770009@c.us'],
    });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(await historyTotal()).toBe(before);
    const idle = (await gw.createSession()).id;
    const idleTemplate = await createTemplate(idle, { name: 'idle', body: 'hello' });
    expectError(
      await send({ chatId: CONTACT, templateId: idleTemplate.id }, undefined, idle),
      400,
      'SESSION_NOT_READY',
    );
  });

  it('answers 401 without a key, 403 for a viewer and for a key scoped to another session', async () => {
    const viewer = await gw.createKey({ name: 'send-template viewer', role: 'viewer' });
    const scoped = await gw.createKey({
      name: 'send-template scoped',
      allowedSessions: [(await gw.createSession()).id],
    });
    const body = { chatId: CONTACT, templateId: order.id, variables: VARIABLES };
    const sent = sentCount();
    expectError(
      await gw.request('POST', `/api/sessions/${sessionId}/messages/send-template`, { key: null, body }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await send(body, viewer.key), 403, 'FORBIDDEN_ROLE');
    expectError(await send(body, scoped.key), 403, 'FORBIDDEN_SESSION');
    expect(sentCount()).toBe(sent);
  });
});
