/**
 * Reading status updates (openwa-facts §1.7): the session's list and a contact's, newest first, straight from the
 * status store (no engine needed: the store is what the host kept of them), each with its poster by both ids; and a
 * status's file, served as message media is. What expired is never answered.
 */
import type { Caller } from '#shared/domain/caller.js';
import type { PageQuery } from '#shared/domain/common.js';
import { type StatusRecord, type StatusView, statusViewOf } from '#shared/domain/status-update.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { type MediaAnswer, serveArchivedFile } from '#shared/use-cases/messages/get-message-media.js';
import { lookUpPeople } from '#shared/use-cases/people/look-up-people.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';

type ReadDeps = Pick<CoreDeps, 'data' | 'clock'>;

/** `GET …/status`: the session's statuses shown now, a page of them. */
export async function listStatuses(
  deps: ReadDeps,
  caller: Caller,
  sessionId: string,
  page: PageQuery,
): Promise<{ statuses: StatusView[] }> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const now = deps.clock.now().getTime();
  return views(deps, sessionId, await deps.data.statuses.list({ sessionId, now }, page));
}

/** `GET …/status/{contactId}`: one contact's statuses shown now (by either of its ids); none is an empty list. */
export async function contactStatuses(
  deps: ReadDeps,
  caller: Caller,
  sessionId: string,
  contactId: string,
  page: PageQuery,
): Promise<{ statuses: StatusView[] }> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const aliases = await deps.data.identities.aliasesOf(sessionId, contactId);
  const query = { sessionId, now: deps.clock.now().getTime(), contactId: [contactId, ...aliases] };
  return views(deps, sessionId, await deps.data.statuses.list(query, page));
}

async function views(
  deps: ReadDeps,
  sessionId: string,
  statuses: StatusRecord[],
): Promise<{ statuses: StatusView[] }> {
  const people = await lookUpPeople(
    deps.data.identities,
    sessionId,
    statuses.map((status) => status.contactId),
  );
  return { statuses: statuses.map((status) => statusViewOf(status, people(status.contactId))) };
}

/** `GET …/status/{statusId}/media`: the file of a status shown now; 404 STATUS_MEDIA_NOT_FOUND otherwise. */
export async function getStatusMedia(
  deps: Pick<CoreDeps, 'data' | 'clock' | 'media'>,
  caller: Caller,
  sessionId: string,
  statusId: string,
): Promise<MediaAnswer> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const status = await deps.data.statuses.find(sessionId, statusId, deps.clock.now().getTime());
  const answer = status?.mediaPath
    ? await serveArchivedFile(deps.media, status.mediaPath, status.media?.mimetype ?? null)
    : null;
  if (!answer) {
    throw new NotFoundError('Status media not found or expired', { code: 'STATUS_MEDIA_NOT_FOUND' });
  }
  return answer;
}
