/**
 * Media in webhook payloads, end to end in each deployment mode (embedded: the inline dispatcher reads the file from
 * the files on disk; aws: the delivery Lambda reads the message from DynamoDB and its file from S3): a media
 * message's `message.sent` carries `media.url` (the route that serves the file) and, up to
 * WEBHOOK_MEDIA_INLINE_MAX_BYTES, the file itself base64-encoded in `media.data`; a larger file travels without it.
 * The receiver is a real local server; every delivery is signed (checked with the standardwebhooks package).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { EventMedia } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { fetchServed } from '#tests/helpers/served-media.js';
import { startTestGateway, type TestGateway, waitFor } from '#tests/helpers/test-gateway.js';
import { linkedSession } from './sessions-support.js';
import { createWebhook, type Receiver, startReceiver } from './webhooks-support.js';

const CONTACT = '15557790001@c.us';
const INLINE_MAX = 5_000;
const SECRET = `whsec_${Buffer.from('inline media test key, 32 bytes!').toString('base64')}`;
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2_000, 5)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(8_000, 6)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('webhooks: media in message events', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let sessionId: string;

  beforeAll(async () => {
    gw = await startTestGateway({
      SSRF_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_MEDIA_INLINE_MAX_BYTES: String(INLINE_MAX),
    });
    receiver = await startReceiver();
    sessionId = (await linkedSession(gw, {}, { phone: '15550008888', pushName: 'Me' })).id;
    await createWebhook(gw, sessionId, { url: receiver.url, events: ['message.sent'], secret: SECRET });
  }, 60_000);
  afterAll(async () => {
    await receiver.close();
    await gw.close();
  });

  /** Sends `body` through `action` and answers the stored row and the `media` of its verified message.sent. */
  async function sentMedia(action: string, body: Record<string, unknown>) {
    const res = await gw.request<Message>('POST', `/api/sessions/${sessionId}/messages/${action}`, {
      body: { chatId: CONTACT, ...body },
    });
    expect(res.status).toBe(201);
    const row = res.body;
    const delivery = await waitFor(
      () =>
        receiver.received.find((r) => {
          const payload = JSON.parse(r.body) as { event: string; data: { messageId: string } };
          return payload.event === 'message.sent' && payload.data.messageId === row.id;
        }),
      20_000,
    );
    const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
    expect(() => new StandardWebhook(SECRET).verify(delivery.body, headers)).not.toThrow();
    const media = (JSON.parse(delivery.body) as { data: { media: EventMedia } }).data.media;
    return { row, media };
  }

  const fetchUrl = async (url: string) => {
    const file = await fetchServed(gw, url);
    expect(file.status).toBe(200);
    return sha256(file.bytes);
  };

  it('carries a file within the cap inline, base64, beside its url', async () => {
    const { row, media } = await sentMedia('send-image', {
      data: PNG.toString('base64'),
      mimetype: 'image/png',
      caption: 'inline',
    });
    expect(media).toEqual({
      mimetype: 'image/png',
      sizeBytes: PNG.length,
      url: `/api/sessions/${sessionId}/messages/${encodeURIComponent(CONTACT)}/${row.id}/media`,
      data: PNG.toString('base64'),
    });
    expect(await fetchUrl(media.url ?? '')).toBe(sha256(PNG));
  });

  it('leaves a file over the cap out, and its url serves it', async () => {
    const { media } = await sentMedia('send-document', {
      data: PDF.toString('base64'),
      mimetype: 'application/pdf',
      filename: 'big.pdf',
    });
    expect(media).toMatchObject({ mimetype: 'application/pdf', filename: 'big.pdf', sizeBytes: PDF.length });
    expect(media.data).toBeUndefined();
    expect(await fetchUrl(media.url ?? '')).toBe(sha256(PDF));
  });
});
