/**
 * The embedded mode's HTTP entry: a node:http server that turns each request into an API Gateway v2 event and
 * calls the same function handlers Lambda would. Bodies over the size limit are refused (413) while streaming,
 * before they are buffered whole.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createResourceHandler } from '#functions/http/http-handler.js';
import { attachRequestStream } from '#functions/http/request-body.js';
import { RouteTable, routeKeyOf } from '#functions/http/route-table.js';
import { acceptStreamedBody, streamedBodyOf } from '#functions/http/streamed-body.js';
import { API_RESOURCES, allRoutes, type ResourceGroup } from '#functions/manifest.js';
import type { createMcpHandler } from '#functions/mcp/mcp-handler.js';
import type { Logger } from '#shared/ports/logger.port.js';

export interface LocalGatewayOptions {
  port: number;
  host: string;
  bodyLimit: number;
  logger: Logger;
  /** Serve the agent-tool endpoint at /mcp (MCP_ENABLED); otherwise the path is unknown (404) like any other. */
  mcp?: boolean;
}

const lambdaContext = (requestId: string): Context =>
  ({
    awsRequestId: requestId,
    functionName: 'waygate-local',
    callbackWaitsForEmptyEventLoop: false,
  }) as Context;

type ResourceHandler = ReturnType<typeof createResourceHandler>;

/**
 * Every route of the manifest with the handler of its resource group, as API Gateway routes them in aws mode. A
 * request no route claims goes, as there, to the handler of the group that takes the catch-all route (docs), which
 * answers 405 with `Allow` for a known path asked with another method, else the standard 404.
 */
function routeTable(mcp: boolean): {
  table: RouteTable<ResourceHandler>;
  unmatched: ResourceHandler;
  mcp: McpHandler | null;
  /** The route keys whose bodies are streamed to the handler unread (routes with `streamedBody`). */
  streamed: ReadonlySet<string>;
} {
  const table = new RouteTable<ResourceHandler>();
  const streamed = new Set<string>();
  let unmatched: ResourceHandler | undefined;
  for (const group of Object.values(API_RESOURCES) as ResourceGroup[]) {
    const handler = createResourceHandler(group.routes, group.catchAll ? { catchAll: allRoutes() } : {});
    if (group.catchAll) unmatched = handler;
    for (const route of group.routes) {
      table.add(route.method, route.path, handler);
      if (route.streamedBody) streamed.add(routeKeyOf(route.method, route.path));
    }
  }
  if (!unmatched) throw new Error('No resource group of the manifest takes the catch-all route');
  return { table, unmatched, mcp: mcp ? lazyMcpHandler() : null, streamed };
}

type McpHandler = ReturnType<typeof createMcpHandler>;

/** The agent-tool endpoint, loaded on its first request: a gateway without it never loads the MCP SDK. */
function lazyMcpHandler(): McpHandler {
  let loaded: Promise<McpHandler> | undefined;
  return async (event) => {
    loaded ??= import('#functions/mcp/mcp-handler.js').then((module) => module.createMcpHandler());
    return (await loaded)(event);
  };
}

/**
 * Request ids shaped like API Gateway's (a UUID): a random prefix drawn once per process and a counter, unique
 * within the process and across restarts, at a fraction of a fresh randomUUID per request.
 */
const REQUEST_ID_PREFIX = randomUUID().slice(0, 24);
let requestCount = 0;
function nextRequestId(): string {
  requestCount = (requestCount + 1) % 0x1000000000000;
  return REQUEST_ID_PREFIX + requestCount.toString(16).padStart(12, '0');
}

let clock = { second: 0, text: '' };
/** API Gateway's `time` field, formatted at most once a second (formatting dates per request costs). */
function requestTime(now: number): string {
  const second = Math.floor(now / 1000);
  if (clock.second !== second) clock = { second, text: new Date(now).toUTCString() };
  return clock.text;
}

/** A query string's parameters as API Gateway v2 gives them: decoded, a repeated key's values joined with commas. */
export function parseQuery(rawQuery: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    query[key] = key in query ? `${query[key]},${value}` : value;
  }
  return query;
}

/** The request's headers as API Gateway v2 gives them: lower-case names, repeated headers joined with commas. */
function headersOf(req: http.IncomingMessage): Record<string, string> {
  // From rawHeaders: `req.headers` would build a second object with node's own joining rules.
  const headers: Record<string, string> = {};
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    const seen = headers[name];
    headers[name] = seen === undefined ? value : `${seen}, ${value}`;
  }
  return headers;
}

interface Target {
  method: string;
  rawPath: string;
  rawQueryString: string;
  /** API Gateway's route key (`GET /api/sessions/{id}`), or `$default` when no route matched. */
  routeKey: string;
  pathParameters: Record<string, string> | undefined;
}

function toEvent(
  req: http.IncomingMessage,
  headers: Record<string, string>,
  body: Buffer | null,
  requestId: string,
  target: Target,
): APIGatewayProxyEventV2 {
  const { method, rawPath, rawQueryString } = target;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: target.routeKey,
    rawPath,
    rawQueryString,
    headers,
    ...(rawQueryString ? { queryStringParameters: parseQuery(rawQueryString) } : {}),
    ...(target.pathParameters ? { pathParameters: target.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: requestTime(now),
      timeEpoch: now,
    },
    body: body && body.length > 0 ? body.toString('utf8') : undefined,
    isBase64Encoded: false,
  } as APIGatewayProxyEventV2;
}

function sendTooLarge(res: http.ServerResponse, limit: number): void {
  const body = JSON.stringify({
    statusCode: 413,
    error: 'Payload Too Large',
    message: `Request body exceeds the ${limit}-byte limit`,
    code: 'PAYLOAD_TOO_LARGE',
  });
  res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(body);
}

/** Whether the request carries a body to read (a declared length, or chunked transfer). */
function hasBody(headers: Record<string, string>): boolean {
  const declared = headers['content-length'];
  return (declared !== undefined && declared !== '0') || headers['transfer-encoding'] !== undefined;
}

/** Reads the body, refusing it (413) as soon as it passes the limit. */
async function readBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  headers: Record<string, string>,
  limit: number,
): Promise<Buffer | null | false> {
  const declared = Number(headers['content-length'] ?? 0);
  if (declared > limit) {
    sendTooLarge(res, limit);
    req.destroy();
    return false;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      sendTooLarge(res, limit);
      req.destroy();
      return false;
    }
    chunks.push(chunk as Buffer);
  }
  return chunks.length ? Buffer.concat(chunks) : null;
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: LocalGatewayOptions,
  routes: ReturnType<typeof routeTable>,
): Promise<void> {
  const headers = headersOf(req);
  const url = req.url ?? '/';
  const mark = url.indexOf('?');
  const rawPath = mark < 0 ? url : url.slice(0, mark);
  const method = (req.method ?? 'GET').toUpperCase();
  const matched = routes.table.match(method, rawPath);
  // A route that streams its body reads it itself, under its own limit (the data import: far past bodyLimit).
  const streamed = matched !== null && routes.streamed.has(matched.routeKey) && hasBody(headers);
  // Bodiless requests (most reads) skip the stream: node:http discards the empty request once the response ends.
  const body = hasBody(headers) && !streamed ? await readBody(req, res, headers, options.bodyLimit) : null;
  if (body === false) return;
  const requestId = nextRequestId();
  const event = toEvent(req, headers, body, requestId, {
    method,
    rawPath,
    rawQueryString: mark < 0 ? '' : url.slice(mark + 1),
    routeKey: matched?.routeKey ?? '$default',
    pathParameters: matched ? matched.params : undefined,
  });
  acceptStreamedBody(event);
  if (streamed) attachRequestStream(event, req);
  // /mcp takes every method (non-POST answers 405 from the endpoint itself), outside the REST routes.
  const result =
    routes.mcp && rawPath === '/mcp'
      ? await routes.mcp(event)
      : await (matched?.value ?? routes.unmatched)(event, lambdaContext(requestId));
  const pieces = streamedBodyOf(result);
  if (pieces) return writePieces(res, result, pieces);
  // A binary answer (a media file) comes base64-encoded, as API Gateway takes it from a Lambda.
  const payload = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? '');
  const responseHeaders: Record<string, string> = { 'content-length': String(Buffer.byteLength(payload)) };
  for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
  // A streamed body refused before it was read whole (401, 413): the rest is not worth reading, so the connection
  // closes after the answer instead of waiting for it.
  if (streamed && !req.complete) responseHeaders.connection = 'close';
  // One write with a known length (no chunked encoding) keeps small responses to a single syscall.
  res.writeHead(result.statusCode ?? 200, responseHeaders);
  res.end(payload);
}

/**
 * Writes a streamed answer (chunked), waiting for the socket to drain between pieces so a slow client holds the
 * producer back instead of the pieces piling up in memory. A failure after the head is sent can only cut the
 * connection (the client sees a truncated body, never a complete-looking one).
 */
async function writePieces(
  res: http.ServerResponse,
  result: APIGatewayProxyStructuredResultV2,
  pieces: AsyncIterable<string>,
): Promise<void> {
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) responseHeaders[name] = String(value);
  res.writeHead(result.statusCode ?? 200, responseHeaders);
  for await (const piece of pieces) {
    if (res.destroyed) return;
    // A client gone mid-body never drains: its close ends the wait, and the loop's exit closes the producer.
    if (!res.write(piece)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end();
}

export interface RunningLocalGateway {
  url: string;
  /** Stops accepting connections and waits for the requests in progress. */
  close(): Promise<void>;
}

/** Starts the server; resolves once it listens. */
export async function startLocalGateway(options: LocalGatewayOptions): Promise<RunningLocalGateway> {
  const routes = routeTable(options.mcp ?? false);
  const server = http.createServer((req, res) => {
    handle(req, res, options, routes).catch((error: unknown) => {
      options.logger.error({ err: error }, 'local gateway failure');
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(
          JSON.stringify({
            statusCode: 500,
            error: 'Internal Server Error',
            message: 'Internal error',
            code: 'INTERNAL',
          }),
        );
      } else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
