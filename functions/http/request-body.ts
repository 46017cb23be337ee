/**
 * Request bodies a route reads itself, as they arrive (routes with `streamedBody`: the data import), so a body of
 * any size never sits in memory whole: the counterpart of streamed-body.ts for answers. Transport-neutral: the
 * embedded gateway hands the socket's bytes over (`attachRequestStream`) and its size limit is the route's own,
 * counted as the bytes come; a Lambda event's body has arrived whole (API Gateway caps it) and is only wrapped,
 * bounded by BODY_SIZE_LIMIT as any other body. A route that reads its body twice spools it to a file first.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type ErrorCode, PayloadTooLargeError } from '#shared/errors/app-error.js';
import { assertJsonMediaType, readBody } from './parse-request.js';

async function* once(text: string): AsyncIterable<string> {
  if (text !== '') yield text;
}

/** A request body read by its route: its bytes (or text) in order, read once. */
export class RequestBody {
  constructor(
    readonly chunks: AsyncIterable<Uint8Array | string>,
    /** The whole body when the transport had it in memory anyway (a Lambda event): no spooling needed. */
    readonly whole: string | null,
  ) {}

  /** A body the transport parsed already (another transport's JSON input): its text again. */
  static ofJson(value: unknown): RequestBody {
    const text = value === undefined ? '' : JSON.stringify(value);
    return new RequestBody(once(text), text);
  }
}

/** How large a route lets its streamed body be, and the code of its 413. */
export interface StreamedBodyLimit {
  maxBytes: number;
  code: ErrorCode;
}

const STREAM = Symbol('request-stream');
type StreamEvent = APIGatewayProxyEventV2 & { [STREAM]?: AsyncIterable<Uint8Array> };

/** Hands the request's bytes to the handler unread (the embedded gateway, for a route that streams its body). */
export function attachRequestStream(event: APIGatewayProxyEventV2, bytes: AsyncIterable<Uint8Array>): void {
  (event as StreamEvent)[STREAM] = bytes;
}

async function* counted(
  bytes: AsyncIterable<Uint8Array>,
  limit: StreamedBodyLimit,
): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of bytes) {
    size += chunk.byteLength;
    if (size > limit.maxBytes) throw new PayloadTooLargeError(limit.maxBytes, limit.code);
    yield chunk;
  }
}

/**
 * The body of a streamed route's request: the attached bytes, counted against `limit` (413 with its code once past
 * it; a declared length past it is refused before any byte is read), else the event's buffered body as text (413
 * PAYLOAD_TOO_LARGE past `bufferedLimit`, as for any route). A body that is not JSON by its media type is 415.
 */
export function requestBodyOf(
  event: APIGatewayProxyEventV2,
  limit: StreamedBodyLimit,
  bufferedLimit: number,
): RequestBody {
  const bytes = (event as StreamEvent)[STREAM];
  if (bytes) {
    if (Number(event.headers['content-length'] ?? 0) > limit.maxBytes)
      throw new PayloadTooLargeError(limit.maxBytes, limit.code);
    assertJsonMediaType(event.headers['content-type']);
    return new RequestBody(counted(bytes, limit), null);
  }
  const text = readBody(event, bufferedLimit) ?? '';
  if (text.trim() !== '') assertJsonMediaType(event.headers['content-type']);
  return new RequestBody(once(text), text);
}

/** A body that can be read again from its start, and given back when done. */
export interface ReplayableBody {
  read(): AsyncIterable<Uint8Array | string>;
  /** Deletes what spooling made (call it whatever happened). */
  dispose(): Promise<void>;
}

const SPOOL_PREFIX = '.import-';
const SPOOL_SUFFIX = '.spool';
/** A spool file older than this is left over by a process that died mid-import: no import runs that long. */
export const STALE_SPOOL_MS = 24 * 3_600_000;

/**
 * Deletes the spool files under `dir` older than STALE_SPOOL_MS (a process killed mid-import cannot delete its own;
 * each file is a whole document, so they would fill the disk), leaving younger ones: another import may be
 * spooling or reading one. Best effort: a file that goes meanwhile, or a folder not there, is no fault.
 */
export async function removeStaleSpools(dir: string, now = Date.now()): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(SPOOL_PREFIX) || !name.endsWith(SPOOL_SUFFIX)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > STALE_SPOOL_MS) await rm(file, { force: true });
  }
}

/**
 * The body, readable as often as needed: a whole body as it is; a streamed one written first to a file of its own
 * under `dir` (it holds one chunk at a time), which `dispose` deletes, and which is deleted at once when spooling
 * fails (a body cut short, one over its limit).
 */
export async function replayable(body: RequestBody, dir: string): Promise<ReplayableBody> {
  const { whole } = body;
  if (whole !== null) return { read: () => once(whole), dispose: async () => {} };
  await removeStaleSpools(dir);
  const file = path.join(dir, `${SPOOL_PREFIX}${randomUUID()}${SPOOL_SUFFIX}`);
  const dispose = () => rm(file, { force: true });
  const handle = await open(file, 'wx', 0o600);
  try {
    for await (const chunk of body.chunks)
      await (typeof chunk === 'string' ? handle.write(chunk) : handle.write(chunk));
  } catch (error) {
    await handle.close();
    await dispose();
    throw error;
  }
  await handle.close();
  return { read: () => createReadStream(file, { highWaterMark: 1024 * 1024 }), dispose };
}
