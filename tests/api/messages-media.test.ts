/**
 * GET /api/sessions/{sessionId}/messages/{chatId}/{messageId}/media: a message's archived file, as a host leaves it
 * (a file in the gateway's media archive, its key and type on the row; both are put there beside the gateway here).
 * The bytes with safe headers (allow-listed type, nosniff, attachment, private); 404s for a message without media,
 * a file that is gone, an unknown message or session; the viewer role and the session scope. A large file is served
 * whole (embedded) or through a presigned S3 URL (aws). Deleting the session, or a contact's revoke, removes the file.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVED_INLINE_MAX_BYTES } from '#shared/use-cases/messages/get-message-media.js';
import { aMessage } from '#tests/helpers/builders.js';
import { withGatewayDataStore, withGatewayMedia } from '#tests/helpers/gateway-data-store.js';
import {
  apiTarget,
  startTestGateway,
  type TestGateway,
  waitFor,
  waitForStatus,
} from '#tests/helpers/test-gateway.js';
import { expectError, expectValidation, UNKNOWN_ID } from './sessions-support.js';

const CONTACT = '15557770001@c.us';
const OTHER_CHAT = '15557770002@c.us';
const ME = '15550003333@c.us';

interface Stored {
  id: string;
  waMessageId: string;
  path: string | null;
}

describe('GET …/messages/{chatId}/{messageId}/media', () => {
  let gw: TestGateway;
  let sessionId: string;
  let photo: Stored;
  const photoBytes = Uint8Array.from({ length: 2048 }, (_, i) => i % 251);

  /** A received message of `sessionId` whose file (when `bytes` are given) is in the archive. */
  const storeMessage = async (
    options: { session?: string; bytes?: Uint8Array; mimetype?: string; chatId?: string } = {},
  ): Promise<Stored> => {
    const session = options.session ?? sessionId;
    const message = aMessage({
      sessionId: session,
      chatId: options.chatId ?? CONTACT,
      from: options.chatId ?? CONTACT,
      to: ME,
      direction: 'incoming',
      type: 'image',
      body: null,
    });
    const mimetype = options.mimetype ?? 'image/jpeg';
    const { bytes } = options;
    const stored = bytes
      ? await withGatewayMedia(gw, (media) =>
          media.put({ sessionId: session, messageId: message.id, mimetype, data: bytes }),
        )
      : null;
    await withGatewayDataStore(gw, (data) =>
      data.messages.insert({
        ...message,
        mediaPath: stored?.path ?? null,
        mediaMimetype: stored ? mimetype : null,
      }),
    );
    return { id: message.id, waMessageId: message.waMessageId as string, path: stored?.path ?? null };
  };
  const mediaPath = (messageId: string, options: { session?: string; chatId?: string } = {}) =>
    `/api/sessions/${options.session ?? sessionId}/messages/${encodeURIComponent(options.chatId ?? CONTACT)}/${messageId}/media`;
  /** The raw answer (bytes, headers), redirects not followed. */
  const fetchMedia = (urlPath: string, key: string | null = gw.adminKey) =>
    fetch(`${gw.url}${urlPath}`, { headers: key ? { 'x-api-key': key } : {}, redirect: 'manual' });
  const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());
  /** A digest to compare large bodies by (jest compares a typed array element by element). */
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const stat = (path: string | null) => withGatewayMedia(gw, (media) => media.stat(path ?? ''));

  beforeAll(async () => {
    gw = await startTestGateway();
    sessionId = (await gw.createSession()).id;
    photo = await storeMessage({ bytes: photoBytes });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers the file by network id or stored id, with its type, length and safe headers', async () => {
    for (const id of [photo.waMessageId, photo.id]) {
      const res = await fetchMedia(mediaPath(id));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('content-length')).toBe(String(photoBytes.byteLength));
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${photo.id}.jpg"`);
      expect(res.headers.get('cache-control')).toBe('private');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await bytesOf(res)).toEqual(photoBytes);
    }
  });

  it('serves a type off the allow-list (HTML, SVG) as an opaque download', async () => {
    for (const mimetype of ['text/html', 'image/svg+xml']) {
      const page = await storeMessage({
        bytes: new TextEncoder().encode('<script>alert(1)</script>'),
        mimetype,
      });
      const res = await fetchMedia(mediaPath(page.waMessageId));
      expect([mimetype, res.status, res.headers.get('content-type')]).toEqual([
        mimetype,
        200,
        'application/octet-stream',
      ]);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${page.id}.bin"`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('404 MEDIA_NOT_FOUND for a message without media and for a file that is gone', async () => {
    const plain = await storeMessage();
    expectError(await gw.request('GET', mediaPath(plain.waMessageId)), 404, 'MEDIA_NOT_FOUND');
    const gone = await storeMessage({ bytes: new Uint8Array([1]) });
    await withGatewayMedia(gw, (media) => media.delete(gone.path ?? ''));
    const res = expectError(await gw.request('GET', mediaPath(gone.waMessageId)), 404, 'MEDIA_NOT_FOUND');
    expect(res.message).toBe('No media stored for this message');
  });

  it('404 for an unknown message, a message of another chat or an unknown session; 400 for bad ids', async () => {
    expectError(await gw.request('GET', mediaPath('NOPE')), 404, 'MESSAGE_NOT_FOUND');
    expectError(await gw.request('GET', mediaPath(randomUUID())), 404, 'MESSAGE_NOT_FOUND');
    expectError(
      await gw.request('GET', mediaPath(photo.waMessageId, { chatId: OTHER_CHAT })),
      404,
      'MESSAGE_NOT_FOUND',
    );
    expectError(
      await gw.request('GET', mediaPath(photo.waMessageId, { session: UNKNOWN_ID })),
      404,
      'NOT_FOUND',
    );
    expectValidation(
      await gw.request('GET', mediaPath(photo.waMessageId, { session: 'nope' })),
      'path.sessionId',
    );
    expectValidation(
      await gw.request('GET', mediaPath(photo.waMessageId, { chatId: 'nope' })),
      'path.chatId',
    );
  });

  it('a viewer reads it; no key is 401; a key scoped to another session is 403, to this one 200', async () => {
    const viewer = await gw.createKey({ name: 'media viewer', role: 'viewer' });
    const elsewhere = await gw.createKey({
      name: 'media elsewhere',
      role: 'viewer',
      allowedSessions: [(await gw.createSession()).id],
    });
    const here = await gw.createKey({ name: 'media here', role: 'viewer', allowedSessions: [sessionId] });
    const path = mediaPath(photo.waMessageId);
    expect((await fetchMedia(path, viewer.key)).status).toBe(200);
    expect((await fetchMedia(path, here.key)).status).toBe(200);
    expectError(await gw.request('GET', path, { key: null }), 401, 'UNAUTHORIZED');
    expectError(await gw.request('GET', path, { key: elsewhere.key }), 403, 'FORBIDDEN_SESSION');
  });

  it(`a file over ${SERVED_INLINE_MAX_BYTES} bytes: whole (embedded), or a 302 to a presigned S3 URL (aws)`, async () => {
    const large = new Uint8Array(SERVED_INLINE_MAX_BYTES + 1000);
    for (let i = 0; i < large.length; i++) large[i] = (i * 7) % 256;
    const video = await storeMessage({ bytes: large, mimetype: 'video/mp4' });
    const res = await fetchMedia(mediaPath(video.waMessageId));
    if (apiTarget === 'embedded') {
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'video/mp4']);
      expect(digest(await bytesOf(res))).toBe(digest(large));
      return;
    }
    expect([res.status, res.headers.get('cache-control')]).toEqual([302, 'no-store']);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/X-Amz-Expires=60/);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${video.id}.mp4"`);
    expect(digest(await bytesOf(file))).toBe(digest(large));
  });

  it('deleting the session deletes its media, and nothing of another session', async () => {
    const doomed = (await gw.createSession()).id;
    const own = await storeMessage({ session: doomed, bytes: new Uint8Array([4, 5]) });
    expect(await stat(own.path)).not.toBeNull();
    expect((await gw.request('DELETE', `/api/sessions/${doomed}`)).status).toBe(204);
    expect(await stat(own.path)).toBeNull();
    expect(await stat(photo.path)).not.toBeNull();
  });

  it("a contact's revoke deletes the message's file; the route then answers 404", async () => {
    const live = (await gw.createSession()).id;
    gw.network.storeCredentials(live, { phone: '15550003333', pushName: 'Me' });
    await gw.request('POST', `/api/sessions/${live}/start`);
    await waitForStatus(gw, live, 'ready');
    const sent = await storeMessage({ session: live, bytes: new Uint8Array([6]) });
    await gw.network.deliverChange(live, {
      targetId: sent.waMessageId,
      chatId: CONTACT,
      senderId: CONTACT,
      timestamp: Math.floor(Date.now() / 1000),
      change: { kind: 'revoke' },
    });
    await waitFor(async () => (await stat(sent.path)) === null);
    const res = await gw.request('GET', mediaPath(sent.waMessageId, { session: live }));
    expectError(res, 404, 'MEDIA_NOT_FOUND');
  });
});
