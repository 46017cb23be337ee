/**
 * Bodies over BODY_SIZE_LIMIT (1kb here) are refused with 413 PAYLOAD_TOO_LARGE while streaming, whether sent with
 * content-length or chunked, before authentication, and write nothing; a body of exactly the limit is accepted.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

/** A raw request over node:http, for exact control of content-length and chunked transfer. */
function rawPost(url: string, path: string, key: string, body: string, chunked: boolean) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const target = new URL(path, url);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': key };
    if (!chunked) headers['content-length'] = String(Buffer.byteLength(body));
    const req = http.request(target, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (chunked) {
      for (let i = 0; i < body.length; i += 256) req.write(body.slice(i, i + 256));
      req.end();
    } else req.end(body);
  });
}

describe('bad input with BODY_SIZE_LIMIT=1kb', () => {
  let gw: TestGateway;
  const sessionCount = async () => ((await gw.request('GET', '/api/sessions')).body as unknown[]).length;
  /** A create-session body of exactly `bytes` bytes. */
  const bodyOf = (name: string, bytes: number) => {
    const base = JSON.stringify({ name, config: { pad: '' } });
    return JSON.stringify({ name, config: { pad: 'p'.repeat(bytes - base.length) } });
  };

  beforeAll(async () => {
    gw = await startTestGateway({ BODY_SIZE_LIMIT: '1kb' });
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each([
    ['content-length', false],
    ['chunked transfer', true],
  ])(
    'a body over the limit sent with %s is 413 PAYLOAD_TOO_LARGE and writes nothing',
    async (_label, chunked) => {
      const before = await sessionCount();
      for (const bytes of [1025, 64 * 1024]) {
        const res = await rawPost(
          gw.url,
          '/api/sessions',
          gw.adminKey,
          bodyOf(`too-big-${bytes}`, bytes),
          chunked,
        );
        expect(res.status).toBe(413);
        expect(JSON.parse(res.text)).toEqual({
          statusCode: 413,
          error: 'Payload Too Large',
          message: 'Request body exceeds the 1024-byte limit',
          code: 'PAYLOAD_TOO_LARGE',
        });
      }
      expect(await sessionCount()).toBe(before);
    },
  );

  it.each([
    ['content-length', false],
    ['chunked transfer', true],
  ])('a body of exactly the limit is accepted (%s)', async (label, chunked) => {
    const body = bodyOf(chunked ? 'at-limit-chunked' : 'at-limit-length', 1024);
    expect(Buffer.byteLength(body)).toBe(1024);
    const res = await rawPost(gw.url, '/api/sessions', gw.adminKey, body, chunked);
    expect([label, res.status]).toEqual([label, 201]);
  });

  it('the limit applies before authentication', async () => {
    const res = await rawPost(gw.url, '/api/auth/api-keys', 'not-a-key', bodyOf('x', 4096), true);
    expect(res.status).toBe(413);
    expect(res.text).not.toMatch(/\bat \S+ \(|\.(ts|js):\d+|node_modules/);
  });
});
