/**
 * Media items of message batches through the HTTP API to the test engine: images, documents and voice notes by
 * base64 or by URL (a real local server, fetched by the host through the SSRF guard when the item is sent), caption
 * and url filled from the item's variables; an item whose file may not be fetched (a private address) or has a type
 * its kind may not be sent as fails on its own with the send's error code while the rest go out; the engine gets
 * each file's bytes, and each sent item's row serves its file back. Refusals at the request: an item without a
 * file, and a filled-in url that is no URL.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Message } from '#shared/domain/message.js';
import { type FileServer, startFileServer } from '#tests/helpers/file-server.js';
import { fetchMedia } from '#tests/helpers/served-media.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, linkedSession } from './sessions-support.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(1_200, 9)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2_500, 4)]);
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(900, 2)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const FAST = { delayBetweenMessages: 1000, randomizeDelay: false };
const CHATS = ['15557780001@c.us', '15557780002@c.us', '15557780003@c.us', '15557780004@c.us'] as const;

interface BatchBody {
  status: string;
  progress: { total: number; sent: number; failed: number; pending: number; cancelled: number };
  results: { chatId: string; status: string; messageId?: string; error?: { code: string } }[];
  completedAt: string | null;
}

describe('messages: batches with media items', () => {
  let gw: TestGateway;
  let sessionId: string;
  let files: FileServer;
  let base: string;

  beforeAll(async () => {
    files = await startFileServer({
      '/invoices/A-17.pdf': { type: 'application/pdf', body: PDF },
      '/voice.ogg': { type: 'audio/ogg', body: OGG },
    });
    base = files.base;
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: '127.0.0.1' });
    sessionId = (await linkedSession(gw, {}, { phone: '15550007777', pushName: 'Me' })).id;
  }, 60_000);
  afterAll(async () => {
    await gw.close();
    await files.close();
  });

  const bulk = (body: unknown) =>
    gw.request<{ batchId: string }>('POST', `/api/sessions/${sessionId}/messages/send-bulk`, { body });
  const finished = (batchId: string) =>
    waitFor(
      async () => {
        const res = await gw.request<BatchBody>(
          'GET',
          `/api/sessions/${sessionId}/messages/batch/${batchId}`,
        );
        return res.status === 200 && res.body.completedAt !== null ? res.body : null;
      },
      30_000,
      100,
    );
  const sentTo = (chatId: string) =>
    (gw.network.sent.get(sessionId) ?? []).filter((m) => m.chatId === chatId);
  const rowOf = async (chatId: string): Promise<Message> => {
    const page = await gw.request<{ messages: Message[] }>(
      'GET',
      `/api/sessions/${sessionId}/messages?chatId=${encodeURIComponent(chatId)}`,
    );
    const [row] = page.body.messages;
    if (!row) throw new Error(`no message in ${chatId}`);
    return row;
  };
  const served = async (chatId: string, id: string) =>
    sha256((await fetchMedia(gw, sessionId, chatId, id)).bytes);

  it('sends each media item with its own file; one that may not be fetched or sent fails alone', async () => {
    const res = await bulk({
      batchId: 'media-1',
      messages: [
        {
          chatId: CHATS[0],
          type: 'image',
          content: { data: PNG.toString('base64'), mimetype: 'image/png', caption: 'Hi {{name}}' },
          variables: { name: 'Ada' },
        },
        {
          chatId: CHATS[1],
          type: 'document',
          content: { url: `${base}/invoices/{{number}}.pdf`, filename: 'invoice.pdf' },
          variables: { number: 'A-17' },
        },
        { chatId: CHATS[2], type: 'audio', content: { url: 'http://10.20.30.40/voice.ogg', ptt: true } },
        {
          chatId: CHATS[3],
          type: 'image',
          content: { data: OGG.toString('base64'), mimetype: 'application/x-msdownload' },
        },
        { chatId: CHATS[2], type: 'audio', content: { url: `${base}/voice.ogg`, ptt: true } },
      ],
      options: FAST,
    });
    expect(res.status).toBe(202);
    const done = await finished('media-1');
    expect(done).toMatchObject({
      status: 'completed',
      progress: { total: 5, sent: 3, failed: 2, pending: 0, cancelled: 0 },
    });
    expect(done.results.map((r) => [r.chatId, r.status, r.error?.code])).toEqual([
      [CHATS[0], 'sent', undefined],
      [CHATS[1], 'sent', undefined],
      [CHATS[2], 'failed', 'URL_NOT_ALLOWED'],
      [CHATS[3], 'failed', 'MEDIA_TYPE_NOT_ALLOWED'],
      [CHATS[2], 'sent', undefined],
    ]);

    const [image] = sentTo(CHATS[0]);
    expect(image?.content).toMatchObject({
      type: 'image',
      caption: 'Hi Ada',
      file: { mimetype: 'image/png' },
    });
    expect(sha256(image?.attachment ?? new Uint8Array())).toBe(sha256(PNG));
    const [doc] = sentTo(CHATS[1]);
    expect(doc?.content).toMatchObject({ type: 'document', file: { fileName: 'invoice.pdf' } });
    expect(sha256(doc?.attachment ?? new Uint8Array())).toBe(sha256(PDF));
    const voices = sentTo(CHATS[2]);
    expect(voices.map((m) => m.content)).toEqual([expect.objectContaining({ type: 'audio', ptt: true })]);
    expect(sha256(voices[0]?.attachment ?? new Uint8Array())).toBe(sha256(OGG));
    expect(sentTo(CHATS[3])).toEqual([]);

    const row = await rowOf(CHATS[1]);
    expect(row).toMatchObject({ type: 'document', metadata: { batch: { batchId: 'media-1', index: 1 } } });
    expect(await served(CHATS[1], row.id)).toBe(sha256(PDF));
  }, 60_000);

  it('refuses an item without a file, or whose url is no URL once filled in, naming the item', async () => {
    expectValidation(
      await bulk({ messages: [{ chatId: CHATS[0], type: 'image', content: { caption: 'x' } }] }),
      'body.messages.0.content.url',
    );
    const broken = await bulk({
      messages: [
        { chatId: CHATS[0], type: 'image', content: { data: PNG.toString('base64'), mimetype: 'image/png' } },
        {
          chatId: CHATS[1],
          type: 'document',
          content: { url: 'https://x.example/{{p}}' },
          variables: { p: '' },
        },
        {
          chatId: CHATS[1],
          type: 'document',
          content: { url: 'https://{{host}}/a.pdf' },
          variables: { host: 'a b' },
        },
      ],
    });
    expectError(broken, 400, 'VALIDATION_FAILED');
    expect(broken.body).toMatchObject({ details: { index: 2 } });
  });
});
