/**
 * GET /api/sessions/{sessionId}/messages/search through the HTTP API: what it finds (every word, folded, newest
 * first, within the session and chat), paging and the `{messages, total, truncated}` shape, edits showing at once,
 * input that looks like query syntax never failing, and the route's error codes, role and session scope.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';

const CONTACT = '15557770001@c.us';
const OTHER = '15557770002@c.us';
const ME = '15550004444@c.us';
const UNKNOWN_SESSION = '00000000-0000-4000-8000-000000000001';

describe('messages: full-text search', () => {
  let gw: TestGateway;
  let sessionId: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await gw.createSession()).id;
    gw.network.storeCredentials(sessionId, { phone: '15550004444', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${sessionId}/start`);
    await waitForStatus(gw, sessionId, 'ready');
    for (const text of ['Lunch at the Café?', 'the café is closed', 'see you tomorrow']) {
      expect((await send(text)).status).toBe(201);
    }
    gw.network.deliverInbound(sessionId, {
      waMessageId: 'IN-SEARCH-1',
      chatId: OTHER,
      from: OTHER,
      to: ME,
      author: null,
      body: 'CAFE with Bob later',
      type: 'text',
      timestamp: Math.floor(Date.now() / 1000) + 60,
      pushName: 'Bob',
    });
    await waitFor(async () => (await search({ q: 'bob' })).body.total === 1);
  });
  afterAll(async () => {
    await gw.close();
  });

  function send(text: string, chatId = CONTACT) {
    return gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, { body: { chatId, text } });
  }
  function search(query: Record<string, string>, options: { key?: string | null; id?: string } = {}) {
    const qs = new URLSearchParams(query).toString();
    return gw.request('GET', `/api/sessions/${options.id ?? sessionId}/messages/search?${qs}`, {
      ...(options.key !== undefined ? { key: options.key } : {}),
    });
  }
  const bodies = (res: { body: { messages: { body: string }[] } }) => res.body.messages.map((m) => m.body);

  it('finds messages holding every word, folded for case and accents, newest first, with total and truncated', async () => {
    const res = await search({ q: 'cafe' });
    expect(res.status).toBe(200);
    expect(bodies(res)).toEqual(['CAFE with Bob later', 'the café is closed', 'Lunch at the Café?']);
    expect(res.body).toMatchObject({ total: 3, truncated: false });
    expect(res.body.messages[0]).toMatchObject({ sessionId, chatId: OTHER, waMessageId: 'IN-SEARCH-1' });
    expect(bodies(await search({ q: 'CAFÉ lunch' }))).toEqual(['Lunch at the Café?']);
    expect(bodies(await search({ q: 'tomorr' }))).toEqual([]);
    expect(bodies(await search({ q: 'tomorr*' }))).toEqual([]);
    expect(bodies(await search({ q: 'tomorrow*' }))).toEqual(['see you tomorrow']);
  });

  it('narrows to a chat and pages with limit and offset', async () => {
    expect(bodies(await search({ q: 'cafe', chatId: CONTACT }))).toEqual([
      'the café is closed',
      'Lunch at the Café?',
    ]);
    const page = await search({ q: 'cafe', limit: '1', offset: '1' });
    expect(bodies(page)).toEqual(['the café is closed']);
    expect(page.body).toMatchObject({ total: 3, truncated: false });
    expect((await search({ q: 'cafe', offset: '5' })).body).toEqual({
      messages: [],
      total: 3,
      truncated: false,
    });
  });

  it('shows an edit at once: the old words no longer find the message, the new ones do', async () => {
    const mine = (await send('meet at nine')).body;
    const edit = await gw.request('POST', `/api/sessions/${sessionId}/messages/edit`, {
      body: { chatId: CONTACT, messageId: mine.waMessageId, body: 'meet at ten' },
    });
    expect(edit.status).toBe(201);
    expect(bodies(await search({ q: 'nine' }))).toEqual([]);
    const found = await search({ q: 'meet ten' });
    expect(found.body.messages.map((m: { id: string }) => m.id)).toContain(mine.id);
  });

  it.each([
    'a" OR "b',
    'NEAR(cafe',
    'NEAR(cafe, 2)',
    'body:cafe',
    'scope:cafe',
    '-cafe',
    '^cafe',
    'cafe AND',
    'cafe OR',
    '{cafe}',
    'cafe"',
    "'; DROP TABLE messages; --",
    'c*a*f*e',
    '"cafe"*',
    `${'x '.repeat(99)}x`,
  ])('answers 200 to text that looks like query syntax: %s', async (q) => {
    const res = await search({ q });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ messages: expect.any(Array), total: expect.any(Number), truncated: false });
  });

  it('treats operators as plain words: cafe OR tomorrow needs both, and the word "or"', async () => {
    expect(bodies(await search({ q: 'cafe OR tomorrow' }))).toEqual([]);
    expect(bodies(await search({ q: '"the" -closed' }))).toEqual(['the café is closed']);
  });

  it.each(['', ' ', '"', '*', '(', '""', '^', '-', '%', ':', '\\', '😀'])(
    'answers 400 VALIDATION_FAILED to a query without a letter or digit: %j',
    async (q) => {
      const res = await search({ q });
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    },
  );

  it('validates the rest of the query: q required and at most 200 characters, limit, offset, chatId, unknown keys', async () => {
    const invalid: Record<string, string>[] = [
      {},
      { q: 'x'.repeat(201) },
      { q: 'cafe', limit: '0' },
      { q: 'cafe', limit: '1001' },
      { q: 'cafe', offset: '-1' },
      { q: 'cafe', chatId: 'x'.repeat(129) },
      { q: 'cafe', from: CONTACT },
    ];
    for (const query of invalid) {
      const res = await search(query);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await search({ q: 'x'.repeat(200) })).status).toBe(200);
  });

  it('lets a viewer search; 401 without a key, 403 for a key of another session, 404 and 400 for bad sessions', async () => {
    const viewer = await gw.createKey({ name: 'search viewer', role: 'viewer' });
    const own = await gw.createKey({ name: 'search own', role: 'viewer', allowedSessions: [sessionId] });
    const other = await gw.createKey({
      name: 'search other',
      allowedSessions: [(await gw.createSession()).id],
    });
    expect(bodies(await search({ q: 'bob' }, { key: viewer.key }))).toEqual(['CAFE with Bob later']);
    expect(bodies(await search({ q: 'bob' }, { key: own.key }))).toEqual(['CAFE with Bob later']);
    const forbidden = await search({ q: 'bob' }, { key: other.key });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN_SESSION']);
    expect((await search({ q: 'bob' }, { key: null })).status).toBe(401);
    const unknown = await search({ q: 'bob' }, { id: UNKNOWN_SESSION });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const notUuid = await search({ q: 'bob' }, { id: 'not-a-uuid' });
    expect([notUuid.status, notUuid.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it("never shows another session's messages", async () => {
    const second = (await gw.createSession()).id;
    expect((await search({ q: 'cafe' }, { id: second })).body).toEqual({
      messages: [],
      total: 0,
      truncated: false,
    });
  });
});
