/**
 * Both identities of a person everywhere (beyond the spec): a message stored under a contact's LID, or under the
 * number, names its sender by both once the engine paired them: in history, in search, in a send's answer, and in
 * the webhook events built after the pairing (message.received, message.reaction, message.edited, message.revoked,
 * message.ack, call.received). A pairing learnt after a message was stored shows in what is read afterwards. Both
 * deployment modes (api and api-aws); the Baileys engine against the simulator: tests/e2e/baileys-messages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MessageView } from '#shared/domain/message.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { linkedSession } from './sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from './webhooks-support.js';

const PHONE = '15557780101@c.us';
const LID = '887766554433221@lid';
const OTHER = '15557780199@c.us';
const GROUP = '120363025246125411@g.us';
const OWN = '15550007777@c.us';
const BOTH = { phone: PHONE, lid: LID };

describe('a person by phone number and by LID', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;
  const inbound = (waMessageId: string, chatId: string, author: string | null, body: string) =>
    gw.network.deliverInbound(sessionId, {
      waMessageId,
      chatId,
      from: chatId,
      to: OWN,
      author,
      body,
      type: 'text',
      timestamp: Math.floor(Date.now() / 1000),
      pushName: null,
    });
  const history = async (query = '') => {
    const res = await gw.request('GET', `/api/sessions/${sessionId}/messages?limit=100${query}`);
    expect(res.status).toBe(200);
    return res.body.messages as MessageView[];
  };
  const senderOf = async (waMessageId: string) =>
    (await history()).find((message) => message.waMessageId === waMessageId)?.sender;
  const delivered = (event: string, match: (data: Record<string, unknown>) => boolean) =>
    waitFor(
      () =>
        receiver.received
          .map((request) => JSON.parse(request.body) as { event: string; data: Record<string, unknown> })
          .find((payload) => payload.event === event && match(payload.data))?.data,
      20_000,
    );

  beforeAll(async () => {
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    receiver = await startReceiver();
    sessionId = (await linkedSession(gw, {}, { phone: OWN.replace('@c.us', ''), pushName: 'Me' })).id;
    await createWebhook(gw, sessionId, {
      url: receiver.url,
      events: [
        'message.received',
        'message.sent',
        'message.ack',
        'message.reaction',
        'message.edited',
        'message.revoked',
        'call.received',
      ],
    });
    await inbound('P-LID', LID, null, 'written under the lid');
    await inbound('P-PHONE', PHONE, null, 'written under the number');
    await inbound('P-GROUP', GROUP, LID, 'a group message by the lid');
    await inbound('P-OTHER', OTHER, null, 'someone else entirely');
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await gw.close();
  });

  it('before any pairing, names each sender by the id it wrote under, and the event says the same', async () => {
    expect(await senderOf('P-LID')).toEqual({ phone: null, lid: LID });
    expect(await senderOf('P-PHONE')).toEqual({ phone: PHONE, lid: null });
    expect(await senderOf('P-GROUP')).toEqual({ phone: null, lid: LID });
    expect(await delivered('message.received', (data) => data.id === 'P-LID')).toMatchObject({
      from: LID,
      sender: { phone: null, lid: LID },
    });
  });

  it('once the engine pairs them, what is read afterwards names the sender by both, stored before or after', async () => {
    gw.network.linkIdentity(sessionId, { lid: LID, phone: PHONE });
    await waitFor(async () => (await senderOf('P-LID'))?.phone === PHONE);
    for (const id of ['P-LID', 'P-PHONE', 'P-GROUP']) expect(await senderOf(id)).toEqual(BOTH);
    expect(await senderOf('P-OTHER')).toEqual({ phone: OTHER, lid: null });
    const found = await gw.request('GET', `/api/sessions/${sessionId}/messages/search?q=written`);
    expect((found.body.messages as MessageView[]).map((message) => message.sender)).toEqual([BOTH, BOTH]);
  });

  it('a message arriving after the pairing is published with both ids, whichever it was addressed by', async () => {
    await inbound('P-LID-2', LID, null, 'again under the lid');
    expect(await delivered('message.received', (data) => data.id === 'P-LID-2')).toMatchObject({
      from: LID,
      sender: BOTH,
    });
  });

  it('a contact’s reaction, edit and delete name the contact by both ids', async () => {
    const change = (targetId: string, kind: 'reaction' | 'edit' | 'revoke') =>
      gw.network.deliverChange(sessionId, {
        targetId,
        chatId: LID,
        senderId: LID,
        timestamp: Math.floor(Date.now() / 1000),
        change:
          kind === 'reaction'
            ? { kind, emoji: '👍' }
            : kind === 'edit'
              ? { kind, body: 'edited under the lid' }
              : { kind },
      });
    await change('P-LID', 'reaction');
    expect(await delivered('message.reaction', (data) => data.messageId === 'P-LID')).toMatchObject({
      senderId: LID,
      sender: BOTH,
    });
    await change('P-LID', 'edit');
    expect(await delivered('message.edited', (data) => data.messageId === 'P-LID')).toMatchObject({
      sender: BOTH,
    });
    await change('P-LID-2', 'revoke');
    expect(await delivered('message.revoked', (data) => data.id === 'P-LID-2')).toMatchObject({
      sender: BOTH,
    });
  });

  it('a send names this account as its sender and its acks name the recipient by both ids', async () => {
    const sent = await gw.request('POST', `/api/sessions/${sessionId}/messages/send-text`, {
      body: { chatId: LID, text: 'to the lid' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.sender).toEqual({ phone: OWN, lid: null });
    const waMessageId = sent.body.waMessageId as string;
    expect(await delivered('message.sent', (data) => data.id === waMessageId)).toMatchObject({
      sender: { phone: OWN, lid: null },
    });
    gw.network.acknowledge(sessionId, { waMessageId, chatId: LID, status: 'delivered' });
    expect(await delivered('message.ack', (data) => data.messageId === waMessageId)).toMatchObject({
      chatId: LID,
      recipient: BOTH,
    });
  });

  it('a call from the contact names the caller by both ids', async () => {
    const callId = gw.network.placeCall(sessionId, LID, false);
    expect(await delivered('call.received', (data) => data.callId === callId)).toMatchObject({
      from: LID,
      caller: BOTH,
    });
  });
});
