/**
 * The admin HTTP API, on the same port as the WebSocket: acts as the primary phone (scan a QR, enter a pairing code,
 * change a chat, edit a label), as the server (drop or log out a device, refuse connections, restrict an account,
 * hold client logouts), as contacts (send, call, read what they received, receipts, presence) and as group members
 * (change a group as a member would).
 * Bodies are checked with zod; see README.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PICTURE_PATH, pictureOf, renderPicture } from '#tests/wa-sim/accounts/profile-picture.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { badRequest, SimError } from '#tests/wa-sim/support/errors.js';
import { accountRoutes } from './admin-accounts.js';
import { chatRoutes } from './admin-chats.js';
import { contactRoutes } from './admin-contacts.js';
import { groupRoutes } from './admin-groups.js';
import { labelRoutes } from './admin-labels.js';
import type { Route } from './admin-schemas.js';

/** Room for a contact's media: 16 MiB of base64 (`MAX_MEDIA_BASE64`) and the JSON around it. */
const MAX_BODY_BYTES = 17 * 1024 * 1024;

/** Builds the request listener serving `/admin/*` and the picture files. */
export function createAdminHandler(
  sim: Simulator,
): (request: IncomingMessage, response: ServerResponse) => void {
  const routes: Route[] = [...accountRoutes, ...chatRoutes, ...labelRoutes, ...contactRoutes, ...groupRoutes];
  return (request, response) => {
    serve(sim, routes, request, response).catch((error: unknown) => {
      if (error instanceof SimError) {
        send(response, error.status, { error: error.message });
        return;
      }
      sim.log.error('admin request failed', error);
      send(response, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  };
}

async function serve(
  sim: Simulator,
  routes: Route[],
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://sim').pathname;
  if (request.method === 'GET' && path.startsWith(PICTURE_PATH) && path.endsWith('.png')) {
    const user = path.slice(PICTURE_PATH.length, -'.png'.length);
    if (pictureOf(sim, user) === 'none') {
      send(response, 404, { error: `${user} has no profile picture` });
      return;
    }
    const picture = renderPicture(user);
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': picture.length });
    response.end(picture);
    return;
  }
  const matching = routes.filter((route) => route.pattern.test(path));
  const route = matching.find((candidate) => candidate.method === request.method);
  if (!route) {
    send(response, matching.length ? 405 : 404, {
      error: matching.length ? 'method not allowed' : 'no such route',
    });
    return;
  }
  const params = route.pattern.exec(path)?.slice(1) ?? [];
  const body = request.method === 'POST' ? await readJson(request) : undefined;
  const reply = await route.handle(sim, params.map(decodeURIComponent), body);
  if (reply.contentType && Buffer.isBuffer(reply.body)) {
    response.writeHead(reply.status ?? 200, {
      ...reply.headers,
      'content-type': reply.contentType,
      'content-length': reply.body.length,
    });
    response.end(reply.body);
    return;
  }
  send(response, reply.status ?? 200, reply.body);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw badRequest(`body too large (at most ${MAX_BODY_BYTES} bytes)`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('body is not valid JSON');
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
}
