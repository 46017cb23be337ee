/**
 * The simulator's media host, on its own HTTPS port with the test-only certificate (`tls/`): Baileys' upload
 * (`POST /mms/<type>/<fileEncSha256, base64url>?auth=…&token=…`, answered `{url, direct_path}` as WhatsApp does)
 * and download (`GET <direct path>`, byte ranges included) of encrypted blobs. The host checks what WhatsApp's
 * does: a valid token from `media_conn`, and that the body hashes to the `fileEncSha256` it is uploaded as.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { mediaHostCredentials } from '#tests/wa-sim/tls/sim-tls.js';
import { sha256 } from './media-crypto.js';
import { MAX_UPLOAD_BYTES } from './media-store.js';

/** A listening media host. */
export interface RunningMediaHost {
  /** `host:port`, as `media_conn` announces it. */
  readonly hostname: string;
  close(): Promise<void>;
}

const UPLOAD_PATH = /^\/mms\/(image|video|audio|document|md-app-state|md-msg-hist)\/([A-Za-z0-9_-]{43})$/;

/** Starts the media host on `host:port` (0 picks a free port) and tells `sim.media` where it is. */
export async function startMediaHost(sim: Simulator, host: string, port = 0): Promise<RunningMediaHost> {
  const server = createServer(mediaHostCredentials(), (request, response) => {
    serve(sim, request, response).catch((error: unknown) => {
      sim.log.error('media request failed', error);
      if (!response.headersSent) json(response, 500, { error: 'internal error' });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string')
    throw new Error('the media host is not listening on a TCP port');
  // A wildcard bind is reached on loopback, which the certificate names.
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const hostname = `${reachable.includes(':') ? `[${reachable}]` : reachable}:${address.port}`;
  sim.media.hostname = hostname;
  sim.log.info(`media host on https://${hostname}`);
  return {
    hostname,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serve(sim: Simulator, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'https://media.invalid');
  if (request.method === 'POST') {
    const upload = UPLOAD_PATH.exec(url.pathname);
    if (!upload) return json(response, 404, { error: 'no such upload path' });
    return await receiveUpload(sim, request, response, url, [upload[1] ?? '', upload[2] ?? '']);
  }
  if (request.method === 'GET' || request.method === 'HEAD') return sendBlob(sim, request, response, url);
  json(response, 405, { error: 'method not allowed' });
}

async function receiveUpload(
  sim: Simulator,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  [type, encSha256]: [string, string],
): Promise<void> {
  const body = await readBody(request);
  if (!body) return json(response, 413, { error: `an upload is at most ${MAX_UPLOAD_BYTES} bytes` }, true);
  if (!sim.media.authorized(url.searchParams.get('auth')))
    return json(response, 401, { error: 'invalid or expired auth token' });
  if (url.searchParams.get('token') !== encSha256)
    return json(response, 400, { error: 'token does not match the upload path' });
  if (sha256(body).toString('base64url') !== encSha256)
    return json(response, 400, { error: 'the body does not hash to the fileEncSha256 in the path' });
  const stored = sim.media.put(type, body);
  json(response, 200, { url: stored.url, direct_path: stored.directPath });
}

/** The request body, or undefined once it grows past the upload limit (the rest is not read). */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_UPLOAD_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function sendBlob(sim: Simulator, request: IncomingMessage, response: ServerResponse, url: URL): void {
  const blob = sim.media.get(url.pathname);
  if (!blob) {
    json(response, 404, { error: 'no such media (never uploaded, or evicted)' });
    return;
  }
  const range = parseRange(request.headers.range, blob.length);
  if (range === 'unsatisfiable') {
    response.writeHead(416, { 'content-range': `bytes */${blob.length}` });
    response.end();
    return;
  }
  const [start, end] = range ?? [0, blob.length - 1];
  const headers: Record<string, string | number> = {
    'content-type': 'application/octet-stream',
    'content-length': end - start + 1,
    'accept-ranges': 'bytes',
  };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${blob.length}`;
  response.writeHead(range ? 206 : 200, headers);
  response.end(request.method === 'HEAD' ? undefined : blob.subarray(start, end + 1));
}

/** A single `bytes=start-[end]` range clamped to the blob; undefined when there is none (or it is not one). */
function parseRange(
  header: string | undefined,
  length: number,
): [number, number] | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), length - 1) : length - 1;
  return start >= length || end < start ? 'unsatisfiable' : [start, end];
}

function json(response: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}
