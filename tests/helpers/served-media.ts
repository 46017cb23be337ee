/**
 * Reading what the media route serves, as a client does (tests of media sends, batches, webhooks and the e2e media
 * runs): the path is the one events carry (mediaRoutePath), fetched with the admin key.
 */
import { mediaRoutePath } from '#shared/domain/media.js';
import type { TestGateway } from './test-gateway.js';

export interface ServedFile {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
}

/** What the gateway answers at `path` (an API path such as an event's `media.url`). */
export async function fetchServed(
  gw: Pick<TestGateway, 'url' | 'adminKey'>,
  path: string,
): Promise<ServedFile> {
  const res = await fetch(`${gw.url}${path}`, { headers: { 'x-api-key': gw.adminKey } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The media route's answer for message `id` (network id or stored id) of a session's chat. */
export function fetchMedia(
  gw: Pick<TestGateway, 'url' | 'adminKey'>,
  sessionId: string,
  chatId: string,
  id: string,
): Promise<ServedFile> {
  return fetchServed(gw, mediaRoutePath({ sessionId, chatId, id }));
}
