/**
 * The media host over HTTPS without a client: what it checks on upload (token, path, hash, size), what it serves
 * (whole blobs, byte ranges, 404 once evicted from its bounded store), and the checks a contact makes on a blob
 * before it decrypts it. Needs NODE_EXTRA_CA_CERTS=tests/wa-sim/tls/ca.pem (npm test sets it).
 */
import { createHash, randomBytes } from 'node:crypto';
import https from 'node:https';
import { decryptMedia, encryptMedia } from '#tests/wa-sim/media/media-crypto.js';
import { MAX_UPLOAD_BYTES, MEDIA_AUTH_TTL_SECONDS } from '#tests/wa-sim/media/media-store.js';
import { type RunningSimulator, startSimulator } from '#tests/wa-sim/server.js';
import { assertSimCaTrusted } from '#tests/wa-sim/tls/sim-tls.js';

const STORE_BYTES = 4_096;
let running: RunningSimulator;

beforeAll(async () => {
  assertSimCaTrusted();
  running = await startSimulator({ logLevel: 'silent', mediaStoreBytes: STORE_BYTES });
});

afterAll(() => running?.close());

const encHash = (blob: Buffer): string => createHash('sha256').update(blob).digest('base64url');

/** Uploads `blob` as Baileys does: `/mms/<type>/<hash>?auth=…&token=<hash>`. */
function upload(blob: Buffer, options: { auth?: string; hash?: string; token?: string; type?: string } = {}) {
  const hash = options.hash ?? encHash(blob);
  const auth = encodeURIComponent(options.auth ?? running.simulator.media.issueAuth());
  const url = `${running.mediaUrl}/mms/${options.type ?? 'image'}/${hash}?auth=${auth}&token=${options.token ?? hash}`;
  return fetch(url, { method: 'POST', body: blob, headers: { 'content-type': 'application/octet-stream' } });
}

async function uploaded(blob: Buffer): Promise<{ url: string; direct_path: string }> {
  const reply = await upload(blob);
  expect(reply.status).toBe(200);
  return (await reply.json()) as { url: string; direct_path: string };
}

describe('uploads', () => {
  it('stores a blob and answers its url and direct path, as WhatsApp does', async () => {
    const blob = randomBytes(1_000);
    const { url, direct_path } = await uploaded(blob);
    expect(direct_path).toMatch(
      /^\/v\/t62\.7118-24\/\d+_\d+_n\.enc\?ccb=11-4&oh=01_[\w-]+&oe=[0-9A-F]+&_nc_sid=5e03e0$/,
    );
    expect(url).toBe(`${running.mediaUrl}${direct_path}&mms3=true`);
    for (const where of [url, `${running.mediaUrl}${direct_path}`]) {
      const reply = await fetch(where);
      expect(reply.status).toBe(200);
      expect(Buffer.from(await reply.arrayBuffer())).toEqual(blob);
    }
  });

  it('refuses a bad or expired token, a token unlike the path, a body of another hash, an unknown type', async () => {
    const blob = randomBytes(100);
    const bad = await upload(blob, { auth: 'forged' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'invalid or expired auth token' });
    const media = running.simulator.media;
    const token = media.issueAuth();
    expect(media.authorized(token)).toBe(true);
    expect(media.authorized(token, Date.now() + MEDIA_AUTH_TTL_SECONDS * 1000 + 1)).toBe(false);
    expect((await upload(blob, { token: encHash(randomBytes(8)) })).status).toBe(400);
    const other = await upload(blob, { hash: encHash(randomBytes(100)) });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ error: 'the body does not hash to the fileEncSha256 in the path' });
    expect((await upload(blob, { type: 'secrets' })).status).toBe(404);
    expect((await fetch(`${running.mediaUrl}/mms/image/x`, { method: 'PUT' })).status).toBe(405);
  });

  it('refuses an upload over the size limit from its Content-Length', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const hash = encHash(Buffer.alloc(0));
      const auth = encodeURIComponent(running.simulator.media.issueAuth());
      const request = https.request(`${running.mediaUrl}/mms/video/${hash}?auth=${auth}&token=${hash}`, {
        method: 'POST',
        headers: { 'content-length': MAX_UPLOAD_BYTES + 1 },
      });
      request.on('response', (response) => {
        resolve(response.statusCode ?? 0);
        request.destroy();
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(status).toBe(413);
  });
});

describe('downloads', () => {
  it('serves byte ranges, and 416 past the end', async () => {
    const blob = randomBytes(300);
    const { url } = await uploaded(blob);
    const range = await fetch(url, { headers: { range: 'bytes=16-47' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 16-47/300');
    expect(Buffer.from(await range.arrayBuffer())).toEqual(blob.subarray(16, 48));
    const open = await fetch(url, { headers: { range: 'bytes=290-' } });
    expect(Buffer.from(await open.arrayBuffer())).toEqual(blob.subarray(290));
    expect((await fetch(url, { headers: { range: 'bytes=300-' } })).status).toBe(416);
  });

  it('evicts the oldest blobs past the store bound, and answers 404 for them', async () => {
    const first = await uploaded(randomBytes(1_500));
    const second = await uploaded(randomBytes(1_500));
    const third = await uploaded(randomBytes(1_500));
    expect((await fetch(first.url)).status).toBe(404);
    expect((await fetch(second.url)).status).toBe(200);
    expect((await fetch(third.url)).status).toBe(200);
    const health = (await (await fetch(`${running.adminUrl}/health`)).json()) as { media: unknown };
    expect(health.media).toEqual({
      blobs: 2,
      bytes: 3_000,
      capacityBytes: STORE_BYTES,
      evicted: expect.any(Number),
    });
    expect(running.simulator.media.stats().evicted).toBeGreaterThanOrEqual(1);
  });
});

describe('what a contact checks before it decrypts', () => {
  const plaintext = randomBytes(999);

  it('opens a blob with its keys', async () => {
    const { blob, ...keys } = await encryptMedia(plaintext, 'document');
    expect(blob.length).toBe(1_008 + 10);
    expect(await decryptMedia(blob, 'document', keys)).toEqual(plaintext);
  });

  it('rejects a wrong hash, MAC, key or plaintext hash', async () => {
    const { blob, mediaKey, fileSha256, fileEncSha256 } = await encryptMedia(plaintext, 'image');
    const altered = Buffer.from(blob);
    altered[5] = (altered[5] ?? 0) ^ 1;
    await expect(decryptMedia(altered, 'image', { mediaKey, fileEncSha256 })).rejects.toThrow(
      'fileEncSha256 does not match the downloaded blob',
    );
    await expect(decryptMedia(altered, 'image', { mediaKey })).rejects.toThrow('the MAC does not match');
    await expect(decryptMedia(blob, 'image', { mediaKey: randomBytes(32) })).rejects.toThrow(
      'the MAC does not match',
    );
    // The keys of another media type expand differently.
    await expect(decryptMedia(blob, 'video', { mediaKey })).rejects.toThrow('the MAC does not match');
    await expect(decryptMedia(blob, 'image', { mediaKey, fileSha256: fileEncSha256 })).rejects.toThrow(
      'fileSha256 does not match the decrypted plaintext',
    );
    await expect(decryptMedia(blob, 'image', {})).rejects.toThrow('the message carries no mediaKey');
    expect(await decryptMedia(blob, 'sticker', { mediaKey, fileSha256 })).toEqual(plaintext);
  });
});
