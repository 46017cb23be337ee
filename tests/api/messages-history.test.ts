/**
 * History filters across a contact's identities: a message stored under a contact's LID (direct, or as the author
 * of a group message) is found by the contact's phone number once the engine paired the two, and the other way
 * round; `@lid` chat ids are accepted by the send routes.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { startTestGateway, type TestGateway, waitFor, waitForStatus } from '#tests/helpers/test-gateway.js';

const PHONE = '15557770101';
const PHONE_ID = `${PHONE}@c.us`;
const LID = '987654321012345@lid';
const GROUP = '120363025246125400@g.us';

describe('messages: history by sender and chat across LID aliases', () => {
  let gw: TestGateway;
  let sessionId: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await gw.createSession()).id;
    gw.network.storeCredentials(sessionId, { phone: '15550004444', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${sessionId}/start`);
    await waitForStatus(gw, sessionId, 'ready');
    const inbound = (waMessageId: string, chatId: string, author: string | null, body: string) =>
      gw.network.deliverInbound(sessionId, {
        waMessageId,
        chatId,
        from: chatId,
        to: '15550004444@c.us',
        author,
        body,
        type: 'text',
        timestamp: Math.floor(Date.now() / 1000),
        pushName: null,
      });
    await inbound('H-PHONE', PHONE_ID, null, 'by phone');
    await inbound('H-LID', LID, null, 'by lid');
    await inbound('H-GROUP', GROUP, LID, 'in group by lid');
    await inbound('H-OTHER', '15557770199@c.us', null, 'someone else');
  });
  afterAll(async () => {
    await gw.close();
  });

  const history = async (query: string): Promise<string[]> => {
    const res = await gw.request('GET', `/api/sessions/${sessionId}/messages?${query}`);
    expect(res.status).toBe(200);
    return (res.body.messages as Message[]).map((m) => m.waMessageId ?? '').sort();
  };

  it('matches only the id asked for before the engine pairs the LID with the phone', async () => {
    expect(await history(`from=${PHONE}`)).toEqual(['H-PHONE']);
    expect(await history(`from=${encodeURIComponent(LID)}`)).toEqual(['H-GROUP', 'H-LID']);
  });

  it('once paired, finds by phone what was stored under the LID (direct and as group author), and back', async () => {
    gw.network.linkIdentity(sessionId, { lid: LID, phone: PHONE_ID });
    await waitFor(async () => (await history(`from=${PHONE}`)).length === 3);
    expect(await history(`from=${PHONE}`)).toEqual(['H-GROUP', 'H-LID', 'H-PHONE']);
    expect(await history(`from=${encodeURIComponent(PHONE_ID)}`)).toEqual(['H-GROUP', 'H-LID', 'H-PHONE']);
    expect(await history(`from=${encodeURIComponent(LID)}`)).toEqual(['H-GROUP', 'H-LID', 'H-PHONE']);
    expect(await history(`chatId=${encodeURIComponent(PHONE_ID)}`)).toEqual(['H-LID', 'H-PHONE']);
    expect(await history(`chatId=${encodeURIComponent(GROUP)}&from=${PHONE}`)).toEqual(['H-GROUP']);
    expect(await history('limit=2')).toHaveLength(2);
  });

  it('accepts a @lid chat id in a send', async () => {
    const res = await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
      body: { chatId: LID, text: 'to the lid' },
    });
    expect([res.status, res.body.chatId]).toEqual([201, LID]);
    const bad = await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
      body: { chatId: 'abc@lid', text: 'x' },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
