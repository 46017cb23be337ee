/**
 * The request nearly every call is, answered without the SDK's streamable HTTP transport: one JSON-RPC request (no
 * batch, no notification, not initialize) with the headers the transport wants. The transport would build a web
 * Request, read its body through a stream, arm an SSE keep-alive timer and hand the answer back through another
 * stream, most of a tool call's cost (tests/bench/mcp-vs-rest.mjs); and these requests share one server. Which
 * requests come here is decided with the SDK's own predicates and schema, the message handed to the server is the one
 * the transport would hand it (parsed by JSONRPCMessageSchema), and the answer is framed as the transport frames it:
 * 200, its SSE headers, one `event: message` per message it would write. Everything else goes through the transport,
 * which answers it (a refused header, a body it cannot parse, a batch…); tests/api/mcp.test.ts compares the two
 * paths. The one difference: no `: keepalive` comment after 15 s, which the transport writes into a stream a buffered
 * answer does not have.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { CallContext, RequestExtra } from './server.js';

/** The transport's headers of an SSE answer, as a web Response lists them (lower case, sorted). */
const SSE_HEADERS = {
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'content-type': 'text/event-stream',
  'x-accel-buffering': 'no',
};

/**
 * The request of `event` when it is one the transport would hand to the server as it is, else undefined. The content
 * type must be the literal every SDK client sends; another spelling the transport accepts goes through it.
 */
export function singleRequest(
  event: Pick<APIGatewayProxyEventV2, 'headers' | 'body'>,
): JSONRPCRequest | undefined {
  const { headers, body } = event;
  const accept = headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (headers['content-type'] !== 'application/json') return undefined;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  if (body === undefined || Buffer.byteLength(body) > DEFAULT_MAX_REQUEST_BODY_SIZE) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = JSONRPCMessageSchema.safeParse(raw);
  if (!parsed.success || !isJSONRPCRequest(parsed.data)) return undefined;
  // Any initialize goes through the transport, which judges it (isInitializeRequest) and answers it; checking the
  // method name alone spares every other request a failing parse by InitializeRequestSchema.
  return parsed.data.method === 'initialize' ? undefined : parsed.data;
}

/** A request in progress on the shared server: its own id, and the SSE events sent about it so far. */
interface Exchange {
  id: JSONRPCRequest['id'];
  context: CallContext;
  events: string;
  settle(events: string): void;
}

/**
 * One server answering the plain requests of a mode, concurrent ones included: each is handed to it under an id of
 * its own (clients number their requests alike), by which the calls find their context and the answer its request;
 * the answer carries the client's id back. A server built per request took over a third of a plain call's handling.
 */
export class SharedServer implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private last = 0;
  private readonly open = new Map<number, Exchange>();
  private readonly connected: Promise<void>;

  constructor(build: (contextOf: (extra: RequestExtra) => CallContext) => Server) {
    const server = build(({ requestId }) => {
      const exchange = this.open.get(requestId as number);
      if (!exchange) throw new Error(`No request ${String(requestId)} in progress`);
      return exchange.context;
    });
    this.connected = server.connect(this);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    const id = answer ? message.id : options?.relatedRequestId;
    // A message about no request goes to the standalone GET stream, which a stateless server never has.
    const exchange = typeof id === 'number' ? this.open.get(id) : undefined;
    if (!exchange) return;
    const sent = answer ? { ...message, id: exchange.id } : message;
    exchange.events += `event: message\ndata: ${JSON.stringify(sent)}\n\n`;
    if (!answer) return;
    this.open.delete(id as number);
    exchange.settle(exchange.events);
  }

  /** `request` answered for `context`: 200, the transport's SSE headers, the events sent about it. */
  async answer(
    request: JSONRPCRequest,
    context: CallContext,
    event: APIGatewayProxyEventV2,
  ): Promise<APIGatewayProxyStructuredResultV2> {
    await this.connected;
    this.last += 1;
    const id = this.last;
    const answered = new Promise<string>((settle) => {
      this.open.set(id, { id: request.id, context, events: '', settle });
    });
    const requestInfo = { headers: event.headers, url: new URL(`http://localhost${event.rawPath}`) };
    this.onmessage?.({ ...request, id }, { requestInfo });
    return { statusCode: 200, headers: { ...SSE_HEADERS }, body: await answered };
  }
}
