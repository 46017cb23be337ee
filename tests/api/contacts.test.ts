/**
 * The contacts routes on the test engine, whose network directory says who is on WhatsApp (the Baileys engine
 * against the simulator: tests/e2e/baileys-contacts.test.ts). What every engine operation answers for access,
 * state and capability is tested from the rows (engine-operations.test.ts); this is what each answers.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { expectError, linkedSession } from './sessions-support.js';

describe('GET /api/sessions/{sessionId}/contacts/check/{number}', () => {
  let gw: TestGateway;
  let sessionId: string;
  const check = (number: string) =>
    gw.request('GET', `/api/sessions/${sessionId}/contacts/check/${encodeURIComponent(number)}`);

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw)).id;
    gw.network.directory.register('15550002222', '880001');
    gw.network.directory.register('15550003333');
  });
  afterAll(async () => {
    await gw.close();
  });

  it('a number on WhatsApp: its id, and its LID when the network tells it', async () => {
    const answer = await check('15550002222');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      number: '15550002222',
      exists: true,
      whatsappId: '15550002222@c.us',
      lid: '880001@lid',
    });
    expect((await check('15550003333')).body).toMatchObject({ exists: true, lid: null });
  });

  it('a number that is not on WhatsApp', async () => {
    const answer = await check('15550009999');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ number: '15550009999', exists: false, whatsappId: null, lid: null });
  });

  it.each(['+15550002222', '1555', '1555000222233334', '15550002222@c.us'])(
    '%s is not a number in international format: 400',
    async (number) => {
      expectError(await check(number), 400, 'VALIDATION_FAILED');
    },
  );
});

describe('contact lookups and blocking', () => {
  let gw: TestGateway;
  let sessionId: string;
  let other: string;
  const PICTURE = 'https://pictures.example/15550002222.jpg';
  const get = (path: string, id = sessionId) => gw.request('GET', `/api/sessions/${id}/contacts/${path}`);
  const block = (method: 'POST' | 'DELETE', contactId: string, id = sessionId) =>
    gw.request(method, `/api/sessions/${id}/contacts/${encodeURIComponent(contactId)}/block`);

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw)).id;
    other = (await linkedSession(gw, {}, { phone: '15550001112', pushName: 'Bob' })).id;
    gw.network.directory.register('15550002222', '880001', PICTURE);
    gw.network.directory.register('15550003333');
  });
  afterAll(async () => {
    await gw.close();
  });

  it('a profile picture by phone number or by LID; null for a user without one', async () => {
    expect((await get('15550002222%40c.us/profile-picture')).body).toEqual({ url: PICTURE });
    expect((await get('880001%40lid/profile-picture')).body).toEqual({ url: PICTURE });
    expect((await get('15550003333%40c.us/profile-picture')).body).toEqual({ url: null });
  });

  it('a profile picture of someone not on WhatsApp is 404', async () => {
    expectError(await get('15550009999%40c.us/profile-picture'), 404, 'NOT_FOUND');
  });

  it('the phone number behind a LID, and a phone-number id answers its own', async () => {
    expect((await get('880001%40lid/phone')).body).toEqual({ contactId: '880001@lid', phone: '15550002222' });
    expect((await get('990009%40lid/phone')).body).toEqual({ contactId: '990009@lid', phone: null });
    expect((await get('15550003333%40c.us/phone')).body).toEqual({
      contactId: '15550003333@c.us',
      phone: '15550003333',
    });
  });

  it('the LID behind a phone number, null when the network tells none, and a LID answers its own', async () => {
    expect((await get('15550002222%40c.us/lid')).body).toEqual({
      contactId: '15550002222@c.us',
      lid: '880001@lid',
    });
    expect((await get('15550003333%40c.us/lid')).body).toEqual({ contactId: '15550003333@c.us', lid: null });
    expect((await get('15550009999%40c.us/lid')).body).toEqual({ contactId: '15550009999@c.us', lid: null });
    expect((await get('990009%40lid/lid')).body).toEqual({ contactId: '990009@lid', lid: '990009@lid' });
  });

  it('profile pictures of a batch: each id once, null for none and for someone not on WhatsApp', async () => {
    const answer = await get(
      'profile-pictures?ids=15550002222%40c.us,880001%40lid,15550003333%40c.us,15550009999%40c.us,880001%40lid',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      pictures: {
        '15550002222@c.us': PICTURE,
        '880001@lid': PICTURE,
        '15550003333@c.us': null,
        '15550009999@c.us': null,
      },
    });
  });

  it('a batch looks up its first 50 distinct ids and leaves the rest out', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `${15550100000 + i}@c.us`);
    const answer = await get(`profile-pictures?ids=${ids.join(',')}`);
    expect(Object.keys((answer.body as { pictures: object }).pictures)).toEqual(ids.slice(0, 50));
  });

  it.each(['', '15550002222', '15550002222@c.us,', 'a@c.us,15550002222@c.us', '120363012345678901@g.us'])(
    'a batch whose ids are %j is 400',
    async (ids) => {
      expectError(await get(`profile-pictures?ids=${encodeURIComponent(ids)}`), 400, 'VALIDATION_FAILED');
    },
  );

  it('a batch without ids is 400', async () => {
    expectError(await get('profile-pictures'), 400, 'VALIDATION_FAILED');
  });

  it('blocks by number or LID, lists the blocked per session, and unblocks', async () => {
    expect((await get('blocked')).body).toEqual([]);
    const blocked = await block('POST', '15550002222@c.us');
    expect(blocked.status).toBe(200);
    expect(blocked.body).toEqual({ success: true, message: 'Contact blocked' });
    expect((await block('POST', '15550003333@c.us')).status).toBe(200);
    expect(((await get('blocked')).body as string[]).sort()).toEqual([
      '15550002222@c.us',
      '15550003333@c.us',
    ]);
    expect((await get('blocked', other)).body).toEqual([]);
    const unblocked = await block('DELETE', '880001@lid');
    expect(unblocked.body).toEqual({ success: true, message: 'Contact unblocked' });
    expect((await get('blocked')).body).toEqual(['15550003333@c.us']);
  });

  it('blocking someone not on WhatsApp is 404', async () => {
    expectError(await block('POST', '15550009999@c.us'), 404, 'NOT_FOUND');
  });

  it.each(['15550002222', '15550002222@s.whatsapp.net', '120363012345678901@g.us'])(
    'a contact id %s that names no person is 400',
    async (contactId) => {
      expectError(await block('POST', contactId), 400, 'VALIDATION_FAILED');
    },
  );
});

describe('the contacts a session knows', () => {
  let gw: TestGateway;
  let sessionId: string;
  let other: string;
  const PICTURE = 'https://pictures.example/15550002222.jpg';
  const request = (path: string, id = sessionId) => gw.request('GET', `/api/sessions/${id}/contacts${path}`);
  const ids = (body: unknown) => (body as { id: string }[]).map((contact) => contact.id);
  const ALICE = {
    id: '15550002222@c.us',
    number: '15550002222',
    lid: '880001@lid',
    name: 'Alice Smith',
    isMyContact: true,
    isBlocked: false,
  };

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await linkedSession(gw)).id;
    other = (await linkedSession(gw, {}, { phone: '15550001113', pushName: 'Bob' })).id;
    gw.network.directory.register('15550002222', '880001', PICTURE);
    gw.network.directory.register('15550003333');
    gw.network.directory.register('15550004444', '770007');
  });
  afterAll(async () => {
    await gw.close();
  });

  it('lists nobody before the network told of anyone', async () => {
    const answer = await request('');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
  });

  it('lists the address book and whoever wrote, by id, each with what is known of them', async () => {
    const book = gw.network.directory.book(sessionId);
    gw.network.directory.save(sessionId, '15550002222', 'Alice Smith');
    book.learn({ phone: '15550003333', pushName: 'Carol' });
    book.learn({ lid: '770007@lid', pushName: 'Dan' });
    const answer = await request('');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      ALICE,
      {
        id: '15550003333@c.us',
        number: '15550003333',
        lid: null,
        pushName: 'Carol',
        isMyContact: false,
        isBlocked: false,
      },
      {
        id: '770007@lid',
        number: null,
        lid: '770007@lid',
        pushName: 'Dan',
        isMyContact: false,
        isBlocked: false,
      },
    ]);
    expect((await request('', other)).body).toEqual([]);
  });

  it('names a person by both ids once a pairing is learnt, and later reads show it', async () => {
    gw.network.directory.book(sessionId).learn({ phone: '15550004444', lid: '770007@lid' });
    expect(ids((await request('')).body)).toEqual([
      '15550002222@c.us',
      '15550003333@c.us',
      '15550004444@c.us',
    ]);
    expect((await request('/15550004444%40c.us')).body).toMatchObject({
      id: '15550004444@c.us',
      number: '15550004444',
      lid: '770007@lid',
      pushName: 'Dan',
    });
  });

  it('pages with limit and offset', async () => {
    expect(ids((await request('?limit=1&offset=1')).body)).toEqual(['15550003333@c.us']);
    expect(ids((await request('?offset=2')).body)).toEqual(['15550004444@c.us']);
    expect((await request('?offset=3')).body).toEqual([]);
  });

  it.each(['limit=0', 'limit=1001', 'offset=-1', 'limit=x', 'sort=name'])('?%s is 400', async (query) => {
    expectError(await request(`?${query}`), 400, 'VALIDATION_FAILED');
  });

  it('gets one by number or by LID, with its picture', async () => {
    const byNumber = await request('/15550002222%40c.us');
    expect(byNumber.status).toBe(200);
    expect(byNumber.body).toEqual({ ...ALICE, profilePicUrl: PICTURE });
    expect((await request('/880001%40lid')).body).toEqual({ ...ALICE, profilePicUrl: PICTURE });
  });

  it('gets someone on WhatsApp the session never met, as not its contact', async () => {
    expect((await request('/15550003333%40c.us', other)).body).toEqual({
      id: '15550003333@c.us',
      number: '15550003333',
      lid: null,
      isMyContact: false,
      isBlocked: false,
      profilePicUrl: null,
    });
  });

  it('shows a block in the list and in the contact', async () => {
    const block = (method: 'POST' | 'DELETE') =>
      gw.request(method, `/api/sessions/${sessionId}/contacts/15550002222%40c.us/block`);
    expect((await block('POST')).status).toBe(200);
    expect((await request('')).body).toContainEqual({ ...ALICE, isBlocked: true });
    expect((await request('/880001%40lid')).body).toMatchObject({ isBlocked: true });
    expect((await block('DELETE')).status).toBe(200);
    expect((await request('/15550002222%40c.us')).body).toMatchObject({ isBlocked: false });
  });

  it('someone not on WhatsApp, or a LID nobody told of, is 404', async () => {
    expectError(await request('/15550009999%40c.us'), 404, 'NOT_FOUND');
    expectError(await request('/990009%40lid'), 404, 'NOT_FOUND');
  });

  it.each(['15550002222', '15550002222%40s.whatsapp.net', '120363012345678901%40g.us'])(
    'a contact id %s that names no person is 400',
    async (contactId) => {
      expectError(await request(`/${contactId}`), 400, 'VALIDATION_FAILED');
    },
  );
});
