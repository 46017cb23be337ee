import { defineRoute } from '#functions/http/route.js';
import { PageQuery } from '#shared/domain/common.js';
import { StatusList } from '#shared/domain/status-update.js';
import { contactStatuses, getStatusMedia, listStatuses } from '#shared/use-cases/statuses/read-statuses.js';
import { MEDIA_BINARY_RESPONSE, mediaAnswerResponse } from '../messages/media-response.js';
import { ContactParams, SessionParams, StatusParams } from './params.js';

/** GET …/status: the statuses shown now (contacts' for 24 h after posting, and the account's own), newest first. */
export const listStatusesRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/status',
  summary: 'List status updates, newest first',
  tag: 'Status',
  auth: { role: 'viewer' },
  params: SessionParams,
  query: PageQuery,
  response: StatusList,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params, query }) => listStatuses(deps, caller, params.sessionId, query),
});

/** GET …/status/{contactId}: one contact's statuses shown now (an empty list when there are none). */
export const contactStatusesRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/status/{contactId}',
  summary: 'List the status updates of a contact',
  tag: 'Status',
  auth: { role: 'viewer' },
  params: ContactParams,
  query: PageQuery,
  response: StatusList,
  success: 200,
  errors: [404],
  run: ({ deps, caller, params, query }) =>
    contactStatuses(deps, caller, params.sessionId, params.contactId, query),
});

/** GET …/status/{statusId}/media: a status's file, served as message media is. */
export const statusMediaRoute = defineRoute({
  method: 'GET',
  path: '/api/sessions/{sessionId}/status/{statusId}/media',
  summary: 'The file of a status update',
  tag: 'Status',
  auth: { role: 'viewer' },
  params: StatusParams,
  binaryResponse: MEDIA_BINARY_RESPONSE('status id'),
  success: 200,
  errors: [404],
  run: async ({ deps, caller, params }) =>
    mediaAnswerResponse(await getStatusMedia(deps, caller, params.sessionId, params.statusId)),
});
