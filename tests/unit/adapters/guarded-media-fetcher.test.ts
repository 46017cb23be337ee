/**
 * GuardedMediaFetcher against a real local HTTP server: the bytes and content type of a 2xx, redirects never
 * followed, statuses, the size cap (declared and streamed), the deadline, and the SSRF guard refusing a private
 * address unless the host is allow-listed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GuardedMediaFetcher } from '#shared/adapters/http/guarded-media-fetcher.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('GuardedMediaFetcher', () => {
  let server: http.Server;
  let base: string;
  const fetcher = new GuardedMediaFetcher({ allowedHosts: ['127.0.0.1'] });
  const request = { maxBytes: 1024, timeoutMs: 2_000 };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      switch (req.url) {
        case '/image.png':
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
          return res.end(PNG);
        case '/moved':
          res.writeHead(302, { location: '/image.png' });
          return res.end();
        case '/missing':
          res.writeHead(404);
          return res.end('nope');
        case '/declared-large':
          res.writeHead(200, { 'content-length': 4096 });
          return res.end(Buffer.alloc(4096));
        case '/streamed-large':
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512));
          return res.end();
        default:
          // Never answers: the deadline ends it.
          return undefined;
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers the bytes and the content type of a 2xx', async () => {
    const result = await fetcher.fetch(`${base}/image.png`, request);
    expect(result).toEqual({ ok: true, bytes: PNG, contentType: 'image/png' });
  });

  it('never follows a redirect, and reports other statuses', async () => {
    expect(await fetcher.fetch(`${base}/moved`, request)).toMatchObject({ ok: false, reason: 'redirect' });
    expect(await fetcher.fetch(`${base}/missing`, request)).toMatchObject({ ok: false, reason: 'status' });
  });

  it('refuses media over the cap, declared or streamed', async () => {
    expect(await fetcher.fetch(`${base}/declared-large`, request)).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
    expect(await fetcher.fetch(`${base}/streamed-large`, request)).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
  });

  it('gives up at the deadline', async () => {
    const result = await fetcher.fetch(`${base}/hang`, { maxBytes: 1024, timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('refuses private addresses, credentials and other schemes unless the host is allow-listed', async () => {
    const guarded = new GuardedMediaFetcher();
    for (const url of [
      `${base}/image.png`,
      'http://10.0.0.1/x.png',
      'http://[::1]/x.png',
      'file:///etc/passwd',
    ]) {
      expect([url, await guarded.fetch(url, request)]).toEqual([
        url,
        expect.objectContaining({ reason: 'refused' }),
      ]);
    }
    const withCredentials = await fetcher.fetch(`http://user:pass@127.0.0.1:1/x.png`, request);
    expect(withCredentials).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('resolves names through the guard, refusing one that points inward', async () => {
    const rebinding = new GuardedMediaFetcher({
      resolve: async () => [{ address: '192.168.1.10', family: 4 }],
    });
    expect(await rebinding.fetch('http://media.example.com/x.png', request)).toMatchObject({
      reason: 'refused',
    });
  });
});
