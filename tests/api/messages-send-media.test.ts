/**
 * Media sends through the HTTP API to the test engine: a file by base64 or by URL (a real local server, fetched
 * through the SSRF guard) is archived before the row, the row carries its key and description, the engine gets the
 * bytes, and the media route serves them back; refusals for private addresses, redirects, wrong types, oversize
 * files and malformed bodies; roles and session scope.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { OutgoingMessage } from '#host/engines/ports/messaging.port.js';
import { type FileServer, startFileServer } from '#tests/helpers/file-server.js';
import { fetchMedia } from '#tests/helpers/served-media.js';
import { startTestGateway, type TestGateway, waitForStatus } from '#tests/helpers/test-gateway.js';

const CONTACT = '15557770301@c.us';
const OTHER = '15557770302@c.us';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2_000, 7)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3_000, 1)]);
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(1_500, 3)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('messages: media sends', () => {
  let gw: TestGateway;
  let sessionId: string;
  let files: FileServer;
  let base: string;

  beforeAll(async () => {
    files = await startFileServer({
      '/report.pdf': { type: 'application/pdf', body: PDF },
      '/moved': { redirect: '/report.pdf' },
    });
    base = files.base;
    gw = await startTestGateway({ SSRF_ALLOWED_HOSTS: '127.0.0.1', MEDIA_DOWNLOAD_MAX_BYTES: '10000' });
    sessionId = (await gw.createSession()).id;
    gw.network.storeCredentials(sessionId, { phone: '15550005555', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${sessionId}/start`);
    await waitForStatus(gw, sessionId, 'ready');
  }, 60_000);
  afterAll(async () => {
    await gw.close();
    await files.close();
  });

  const post = (action: string, body: unknown, options: { key?: string | null; id?: string } = {}) =>
    gw.request('POST', `/api/sessions/${options.id ?? sessionId}/messages/${action}`, {
      body,
      ...(options.key !== undefined ? { key: options.key } : {}),
    });
  const lastSent = (): OutgoingMessage | undefined => (gw.network.sent.get(sessionId) ?? []).at(-1);
  const served = (chatId: string, id: string) => fetchMedia(gw, sessionId, chatId, id);

  it('sends an image given as base64: archived, described on the row, the bytes handed to the engine', async () => {
    const res = await post('send-image', {
      chatId: CONTACT,
      data: PNG.toString('base64'),
      mimetype: 'image/png',
      caption: 'the view',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'image',
      body: 'the view',
      status: 'sent',
      mediaMimetype: 'image/png',
      mediaPath: expect.stringContaining(sessionId),
      metadata: { media: { mimetype: 'image/png', sizeBytes: PNG.length } },
    });
    const sent = lastSent();
    expect(sent?.content).toMatchObject({
      type: 'image',
      caption: 'the view',
      file: { mimetype: 'image/png' },
    });
    expect(sha256(sent?.attachment ?? new Uint8Array())).toBe(sha256(PNG));
    const file = await served(CONTACT, res.body.waMessageId);
    expect([file.status, sha256(file.bytes)]).toEqual([200, sha256(PNG)]);
  });

  it('sends a document fetched from a URL, keeping its file name and the type the URL answered', async () => {
    const res = await post('send-document', {
      chatId: CONTACT,
      url: `${base}/report.pdf`,
      filename: 'q3.pdf',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'document', metadata: { media: { filename: 'q3.pdf' } } });
    expect(lastSent()?.content).toMatchObject({
      type: 'document',
      file: { mimetype: 'application/pdf', fileName: 'q3.pdf' },
    });
    expect(sha256(lastSent()?.attachment ?? new Uint8Array())).toBe(sha256(PDF));
  });

  it('sends a voice note (stored as voice, Opus by default) and forwards it, the same file, to another chat', async () => {
    const voice = await post('send-audio', {
      chatId: CONTACT,
      data: OGG.toString('base64'),
      mimetype: 'audio/ogg; codecs=opus',
      ptt: true,
    });
    expect(voice.status).toBe(201);
    expect(voice.body).toMatchObject({ type: 'voice', body: null });
    expect(lastSent()?.content).toMatchObject({
      type: 'audio',
      ptt: true,
      file: { mimetype: 'audio/ogg; codecs=opus' },
    });
    const forward = await post('forward', {
      fromChatId: CONTACT,
      toChatId: OTHER,
      messageId: voice.body.waMessageId,
    });
    expect(forward.status).toBe(201);
    expect(lastSent()).toMatchObject({
      chatId: OTHER,
      content: { type: 'audio', ptt: true, forwarded: true },
    });
    expect(sha256(lastSent()?.attachment ?? new Uint8Array())).toBe(sha256(OGG));
  });

  it('refuses a private address, a redirect, a missing file, the wrong type and an oversize file', async () => {
    const cases: Array<[string, object, number, string]> = [
      ['send-image', { chatId: CONTACT, url: 'http://10.1.2.3/x.png' }, 400, 'URL_NOT_ALLOWED'],
      ['send-document', { chatId: CONTACT, url: `${base}/moved` }, 400, 'MEDIA_FETCH_FAILED'],
      ['send-document', { chatId: CONTACT, url: `${base}/missing.pdf` }, 400, 'MEDIA_FETCH_FAILED'],
      ['send-image', { chatId: CONTACT, url: `${base}/report.pdf` }, 400, 'MEDIA_TYPE_NOT_ALLOWED'],
      [
        'send-sticker',
        { chatId: CONTACT, data: PNG.toString('base64'), mimetype: 'image/png' },
        400,
        'MEDIA_TYPE_NOT_ALLOWED',
      ],
      [
        'send-image',
        { chatId: CONTACT, data: Buffer.alloc(20_000).toString('base64'), mimetype: 'image/png' },
        413,
        'MEDIA_TOO_LARGE',
      ],
    ];
    const before = (gw.network.sent.get(sessionId) ?? []).length;
    for (const [action, body, status, code] of cases) {
      const res = await post(action, body);
      expect([action, res.status, res.body.code]).toEqual([action, status, code]);
    }
    expect((gw.network.sent.get(sessionId) ?? []).length).toBe(before);
  });

  it('validates bodies: one of url and data, data with its mimetype, base64 only, no file: URLs', async () => {
    const bodies = [
      { chatId: CONTACT },
      {
        chatId: CONTACT,
        url: `${base}/report.pdf`,
        data: PDF.toString('base64'),
        mimetype: 'application/pdf',
      },
      { chatId: CONTACT, data: PNG.toString('base64') },
      { chatId: CONTACT, data: 'data:image/png;base64,AAAA', mimetype: 'image/png' },
      { chatId: CONTACT, url: 'file:///etc/passwd' },
    ];
    for (const body of bodies) {
      const res = await post('send-image', body);
      expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
  });

  it.each(['send-image', 'send-video', 'send-audio', 'send-document', 'send-sticker'])(
    '%s: 401 without a key, 403 for a viewer or another session’s key, 404 for an unknown session',
    async (action) => {
      const body = { chatId: CONTACT, data: PNG.toString('base64'), mimetype: 'image/webp' };
      const viewer = await gw.createKey({ name: `${action} viewer`, role: 'viewer' });
      const scoped = await gw.createKey({
        name: `${action} scoped`,
        allowedSessions: [(await gw.createSession()).id],
      });
      expect((await post(action, body, { key: null })).status).toBe(401);
      expect((await post(action, body, { key: viewer.key })).status).toBe(403);
      expect((await post(action, body, { key: scoped.key })).status).toBe(403);
      expect((await post(action, body, { id: '00000000-0000-4000-8000-000000000001' })).status).toBe(404);
    },
  );
});
