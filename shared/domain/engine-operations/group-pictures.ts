/**
 * A group's picture (openwa-facts §1.4): read it, set it, remove it. Setting takes the image as the media sends do,
 * by `url` (fetched through the SSRF guard) or as base64 `data` with its `mimetype`; the host that runs the engine
 * reads it into bytes (`toEngine`), and WhatsApp gets the picture the engine makes of them. Who may change it is
 * WhatsApp's rule for the group's info: any member, admins only once the group is locked (403
 * GROUP_ADMIN_REQUIRED). A group the account is not in answers 404.
 */
import { z } from 'zod';
import { GroupId, GroupOperationDone } from '../group.js';
import { Base64Data, EXACTLY_ONE_SOURCE, MediaUrl, MimeType } from '../send-requests.js';
import { defineEngineOperation, type OperationRoute } from './engine-operation.js';

const GROUP = '120363025246125411@g.us';
const GroupRef = z.strictObject({ groupId: GroupId });
/** A 1×1 PNG: the example's picture. */
const DOT_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The route of `method` on `…/groups/{groupId}/picture`. */
const route = (method: OperationRoute['method'], summary: string): OperationRoute => ({
  method,
  path: '/api/sessions/{sessionId}/groups/{groupId}/picture',
  summary,
  tag: 'Groups',
  success: 200,
});

/** `GET …/groups/{groupId}/picture`: the URL of the group's picture, or null when it has none. */
export const groupPicture = defineEngineOperation({
  name: 'groups.picture',
  capability: 'groups_read',
  method: 'picture',
  input: GroupRef,
  result: z.object({ url: z.string().nullable() }).meta({ id: 'GroupPicture' }),
  role: 'viewer',
  chats: { addresses: ['groupId'] },
  http: route('GET', 'Get the picture URL of a group'),
  example: {
    input: { groupId: GROUP },
    result: { url: 'https://pps.whatsapp.net/v/t61.24694-24/…' },
  },
});

/** `PUT …/groups/{groupId}/picture`: sets the group's picture from an image by URL or in base64. */
export const setGroupPicture = defineEngineOperation({
  name: 'groups.setPicture',
  capability: 'groups_manage',
  method: 'setPicture',
  input: GroupRef.extend({
    url: MediaUrl.optional(),
    data: Base64Data.optional(),
    mimetype: MimeType.optional(),
  })
    .refine((input) => (input.url === undefined) !== (input.data === undefined), EXACTLY_ONE_SOURCE)
    .refine((input) => input.data === undefined || input.mimetype !== undefined, 'data needs its mimetype'),
  result: GroupOperationDone,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: { ...route('PUT', 'Set the picture of a group'), errors: [413] },
  toEngine: async ({ groupId, url, data, mimetype }, files) => ({
    groupId,
    image: await files.read('image', url === undefined ? { data: data ?? '' } : { url }, mimetype),
  }),
  example: {
    input: { groupId: GROUP, data: DOT_PNG, mimetype: 'image/png' },
    result: { success: true, message: 'Group picture updated' },
  },
});

/** `DELETE …/groups/{groupId}/picture`: removes the group's picture. */
export const removeGroupPicture = defineEngineOperation({
  name: 'groups.removePicture',
  capability: 'groups_manage',
  method: 'removePicture',
  input: GroupRef,
  result: GroupOperationDone,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: route('DELETE', 'Remove the picture of a group'),
  example: { input: { groupId: GROUP }, result: { success: true, message: 'Group picture removed' } },
});
