/**
 * The guarded HTTP client against real local sockets: it refuses what the guard refuses, connects only to the
 * vetted address (Host and SNI keep the URL's name), never follows a redirect, times out, caps the body it reads,
 * reuses kept-alive sockets, and reports every failure as a value.
 */
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  GuardedHttpClient,
  type GuardedHttpClientOptions,
} from '#shared/adapters/http/guarded-http-client.js';
import type { HostResolver } from '#shared/security/ssrf-guard.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

interface TestServer {
  readonly port: number;
  readonly seen: Seen[];
  connections: number;
}

const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function client(options: GuardedHttpClientOptions = {}): GuardedHttpClient {
  const created = new GuardedHttpClient(options);
  cleanups.push(() => created.close());
  return created;
}

function listen(server: net.Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

/** An HTTP server that records what reaches it and answers with `respond` (which may also never answer). */
async function httpServer(
  respond: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end(),
  host = '127.0.0.1',
  port = 0,
): Promise<TestServer> {
  const state = { port: 0, seen: [] as Seen[], connections: 0 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      state.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      respond(req, res);
    });
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  state.port = await listen(server, host, port);
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return state;
}

const answers =
  (address: string): HostResolver =>
  async () => [{ address, family: 4 }];

const post = { headers: { 'content-type': 'application/json' }, body: '{"event":"test"}', timeoutMs: 2_000 };

describe('GuardedHttpClient', () => {
  it('refuses a loopback URL unless its host is allowed, and then posts and returns the status', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(201, { 'x-answer': 'yes' });
      res.end('created');
    });
    const url = `http://127.0.0.1:${server.port}/hooks/in?x=1`;

    const refused = await client().post(url, post);
    expect(refused).toEqual({ ok: false, reason: 'refused', error: expect.stringContaining('loopback') });
    expect(server.connections).toBe(0);

    const result = await client({ allowedHosts: ['127.0.0.1'] }).post(url, post);
    expect(result).toMatchObject({ ok: true, status: 201, headers: { 'x-answer': 'yes' } });
    expect(server.seen).toEqual([
      {
        method: 'POST',
        url: '/hooks/in?x=1',
        headers: expect.objectContaining({
          host: `127.0.0.1:${server.port}`,
          'content-type': 'application/json',
          'content-length': String(post.body.length),
        }),
        body: post.body,
      },
    ]);
  });

  it('does not follow a redirect: the 302 is the answer and its target sees nothing', async () => {
    const target = await httpServer();
    const redirecting = await httpServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/elsewhere` });
      res.end();
    });
    const result = await client({ allowedHosts: ['127.0.0.1'] }).post(
      `http://127.0.0.1:${redirecting.port}/`,
      post,
    );
    expect(result).toMatchObject({ ok: true, status: 302 });
    expect(redirecting.seen).toHaveLength(1);
    expect(target.connections).toBe(0);
  });

  it('times out a server that never answers and drops the connection', async () => {
    let serverSocketClosed = false;
    const silent = await httpServer((req) => {
      req.socket.on('close', () => {
        serverSocketClosed = true;
      });
    });
    const started = performance.now();
    const result = await client({ allowedHosts: ['127.0.0.1'] }).post(`http://127.0.0.1:${silent.port}/`, {
      ...post,
      timeoutMs: 150,
    });
    expect(result).toEqual({ ok: false, reason: 'timeout', error: 'No response within 150 ms' });
    expect(performance.now() - started).toBeLessThan(1_500);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(serverSocketClosed).toBe(true);
  });

  it('connects to the vetted address only, with the URL name in the Host header, whatever DNS says later', async () => {
    const vetted = await httpServer((_req, res) => res.end());
    // Same port on another loopback address: where a client that resolved again would be sent.
    const rebound = await httpServer((_req, res) => res.end(), '127.0.0.2', vetted.port);
    let lookups = 0;
    const resolve = jest.fn<HostResolver>(async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    });
    const result = await client({ allowedHosts: ['127.0.0.1', '127.0.0.2'], resolve }).post(
      `http://hook.test:${vetted.port}/in`,
      post,
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(vetted.seen.map((seen) => seen.headers.host)).toEqual([`hook.test:${vetted.port}`]);
    expect(rebound.connections).toBe(0);
  });

  it('pins a TLS connection too, sending the URL name as SNI', async () => {
    const hello: Buffer[] = [];
    const tcp = net.createServer((socket) => {
      socket.once('data', (chunk) => {
        hello.push(chunk);
        socket.destroy();
      });
    });
    const port = await listen(tcp, '127.0.0.1');
    cleanups.push(() => tcp.close());
    const result = await client({ allowedHosts: ['127.0.0.1'], resolve: answers('127.0.0.1') }).post(
      `https://hook.test:${port}/in`,
      post,
    );
    expect(result).toMatchObject({ ok: false, reason: 'network' });
    expect(Buffer.concat(hello).includes('hook.test')).toBe(true);
  });

  it('reuses one kept-alive connection for sequential posts', async () => {
    const server = await httpServer((_req, res) => res.end('ok'));
    const guarded = client({ allowedHosts: ['127.0.0.1'] });
    const url = `http://127.0.0.1:${server.port}/`;
    await expect(guarded.post(url, post)).resolves.toMatchObject({ ok: true, status: 200 });
    await expect(guarded.post(url, post)).resolves.toMatchObject({ ok: true, status: 200 });
    expect(server.seen).toHaveLength(2);
    expect(server.connections).toBe(1);
  });

  it('closes idle pooled sockets after idleSocketMs, but never cuts a slower answer in flight', async () => {
    let serverSocketClosed = false;
    const slow = await httpServer((req, res) => {
      req.socket.on('close', () => {
        serverSocketClosed = true;
      });
      setTimeout(() => res.end(), 150);
    });
    const result = await client({ allowedHosts: ['127.0.0.1'], idleSocketMs: 50 }).post(
      `http://127.0.0.1:${slow.port}/`,
      post,
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(serverSocketClosed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(serverSocketClosed).toBe(true);
  });

  it('reads no more of a body than the cap, then drops the connection', async () => {
    let streaming: NodeJS.Timeout | undefined;
    cleanups.push(() => clearInterval(streaming));
    let serverSideClosed: () => void = () => {};
    const dropped = new Promise<void>((resolve) => {
      serverSideClosed = resolve;
    });
    const { port } = await httpServer((_req, res) => {
      res.writeHead(200);
      streaming = setInterval(() => res.write(Buffer.alloc(16 * 1024)), 5);
      res.on('close', () => {
        clearInterval(streaming);
        serverSideClosed();
      });
    });
    const started = performance.now();
    const result = await client({ allowedHosts: ['127.0.0.1'], maxResponseBytes: 1024 }).post(
      `http://127.0.0.1:${port}/`,
      { ...post, timeoutMs: 5_000 },
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(performance.now() - started).toBeLessThan(1_000);
    await dropped;
  });

  it('reports a refused connection, a failed lookup and an unsendable header as values', async () => {
    const closed = net.createServer();
    const port = await listen(closed, '127.0.0.1');
    await new Promise((resolve) => closed.close(resolve));
    const allowed = client({ allowedHosts: ['127.0.0.1'] });
    await expect(allowed.post(`http://127.0.0.1:${port}/`, post)).resolves.toEqual({
      ok: false,
      reason: 'network',
      error: expect.stringContaining('ECONNREFUSED'),
    });

    const failing = client({
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND hook.test'), { code: 'ENOTFOUND' });
      },
    });
    await expect(failing.post('http://hook.test/', post)).resolves.toEqual({
      ok: false,
      reason: 'dns',
      error: 'URL not allowed: hook.test could not be resolved (ENOTFOUND)',
    });

    await expect(
      allowed.post(`http://127.0.0.1:${port}/`, { ...post, headers: { 'x-bad': 'a\nb' } }),
    ).resolves.toMatchObject({ ok: false, reason: 'refused' });
  });
});
