/**
 * The group operations (openwa-facts §1.4): the groups the account belongs to, a group with its members and
 * settings, creating one, its subject, description and settings, its invite code, joining by a code and leaving.
 * Members are added, removed, promoted and demoted by group-members.ts. A group the account is not in answers 404.
 */
import { z } from 'zod';
import { PageQuery } from '../common.js';
import {
  GroupOperationDone as Done,
  EPHEMERAL_SECONDS,
  GroupId,
  GroupInfo,
  GroupJoinInfo,
  GroupSettings,
  GroupSummary,
  InviteCode,
  ParticipantList,
} from '../group.js';
import { defineEngineOperation } from './engine-operation.js';

const GROUPS = 'Groups';
const GROUP = '120363025246125411@g.us';
const ALICE = '15550002222@c.us';
const GroupRef = z.strictObject({ groupId: GroupId });
const GroupName = z.string().trim().min(1).max(100);
const Code = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an invite code (letters, digits, - and _)');

const INFO_EXAMPLE = {
  id: GROUP,
  name: 'Team',
  description: null,
  owner: ALICE,
  createdAt: 1_790_000_000,
  isReadOnly: false,
  isAnnounce: false,
  linkedParentJID: null,
  participants: [{ id: ALICE, number: '15550002222', lid: null, isAdmin: true, isSuperAdmin: true }],
};

/** `GET …/groups`: the groups the account belongs to, a page of them. */
export const listGroups = defineEngineOperation({
  name: 'groups.list',
  capability: 'groups_read',
  method: 'list',
  input: PageQuery,
  result: z.array(GroupSummary),
  role: 'viewer',
  chats: { listed: (group) => group.id },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/groups',
    summary: 'List groups',
    tag: GROUPS,
    success: 200,
  },
  example: { input: { limit: 100, offset: 0 }, result: [{ id: GROUP, name: 'Team', linkedParentJID: null }] },
});

/** `GET …/groups/{groupId}`: a group with its members and settings. */
export const getGroup = defineEngineOperation({
  name: 'groups.get',
  capability: 'groups_read',
  method: 'get',
  input: GroupRef,
  result: GroupInfo,
  role: 'viewer',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/groups/{groupId}',
    summary: 'Get a group with its participants',
    tag: GROUPS,
    success: 200,
  },
  example: { input: { groupId: GROUP }, result: INFO_EXAMPLE },
});

/** `POST …/groups`: creates a group with the account as its admin and the people given. */
export const createGroup = defineEngineOperation({
  name: 'groups.create',
  capability: 'groups_manage',
  method: 'create',
  input: z.strictObject({ name: GroupName, participants: ParticipantList }),
  result: z
    .object({
      id: z.string(),
      name: z.string(),
      participantsCount: z.number().int(),
      isAdmin: z.boolean(),
      linkedParentJID: z.string().nullable(),
    })
    .meta({ id: 'GroupCreated' }),
  role: 'operator',
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/groups',
    summary: 'Create a group',
    tag: GROUPS,
    success: 201,
  },
  example: {
    input: { name: 'Team', participants: [ALICE] },
    result: { id: GROUP, name: 'Team', participantsCount: 2, isAdmin: true, linkedParentJID: null },
  },
});

/** `PUT …/groups/{groupId}/subject`: renames a group. */
export const setGroupSubject = defineEngineOperation({
  name: 'groups.setSubject',
  capability: 'groups_manage',
  method: 'setSubject',
  input: GroupRef.extend({ subject: GroupName }),
  result: Done,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'PUT',
    path: '/api/sessions/{sessionId}/groups/{groupId}/subject',
    summary: 'Set the subject of a group',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { groupId: GROUP, subject: 'Team' },
    result: { success: true, message: 'Group subject updated' },
  },
});

/** `PUT …/groups/{groupId}/description`: sets a group's description ("" clears it). */
export const setGroupDescription = defineEngineOperation({
  name: 'groups.setDescription',
  capability: 'groups_manage',
  method: 'setDescription',
  input: GroupRef.extend({ description: z.string().max(1024) }),
  result: Done,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'PUT',
    path: '/api/sessions/{sessionId}/groups/{groupId}/description',
    summary: 'Set the description of a group',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { groupId: GROUP, description: 'Release planning' },
    result: { success: true, message: 'Group description updated' },
  },
});

/** `GET …/groups/{groupId}/settings`. */
export const groupSettings = defineEngineOperation({
  name: 'groups.settings',
  capability: 'groups_read',
  method: 'settings',
  input: GroupRef,
  result: GroupSettings,
  role: 'viewer',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/groups/{groupId}/settings',
    summary: 'Get the settings of a group',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { groupId: GROUP },
    result: { announce: false, locked: false, ephemeralSeconds: 0, memberAddMode: 'admins' },
  },
});

/** `PUT …/groups/{groupId}/settings`: changes the settings given (at least one); answers them all. */
export const updateGroupSettings = defineEngineOperation({
  name: 'groups.updateSettings',
  capability: 'groups_manage',
  method: 'updateSettings',
  input: GroupRef.extend({
    announce: z.boolean().optional(),
    locked: z.boolean().optional(),
    ephemeralSeconds: z
      .union(EPHEMERAL_SECONDS.map((seconds) => z.literal(seconds)))
      .optional()
      .meta({ description: 'One of 0 (off), 86400, 604800, 7776000.' }),
    memberAddMode: z.enum(['all', 'admins']).optional(),
  }).refine(
    (input) => Object.keys(input).length > 1,
    'give at least one of announce, locked, ephemeralSeconds, memberAddMode',
  ),
  result: GroupSettings,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'PUT',
    path: '/api/sessions/{sessionId}/groups/{groupId}/settings',
    summary: 'Change the settings of a group',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { groupId: GROUP, announce: true },
    result: { announce: true, locked: false, ephemeralSeconds: 0, memberAddMode: 'admins' },
  },
});

/** `GET …/groups/{groupId}/invite-code`: the group's invite code and link (admins only). */
export const groupInviteCode = defineEngineOperation({
  name: 'groups.inviteCode',
  capability: 'groups_manage',
  method: 'inviteCode',
  input: GroupRef,
  result: InviteCode,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/groups/{groupId}/invite-code',
    summary: 'Get the invite code of a group',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { groupId: GROUP },
    result: { inviteCode: 'AbCdEfGh123', inviteLink: 'https://chat.whatsapp.com/AbCdEfGh123' },
  },
});

/** `POST …/groups/{groupId}/invite-code/revoke`: voids the code; answers the new one. */
export const revokeGroupInvite = defineEngineOperation({
  name: 'groups.revokeInvite',
  capability: 'groups_manage',
  method: 'revokeInvite',
  input: GroupRef,
  result: InviteCode.extend({ message: z.string() }).meta({ id: 'GroupInviteRevoked' }),
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/groups/{groupId}/invite-code/revoke',
    summary: 'Revoke the invite code of a group',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { groupId: GROUP },
    result: {
      inviteCode: 'XyZ987',
      inviteLink: 'https://chat.whatsapp.com/XyZ987',
      message: 'Invite code revoked and new one generated',
    },
  },
});

/** `GET …/groups/join-info?code=`: what an invite code tells of its group. */
export const groupJoinInfo = defineEngineOperation({
  name: 'groups.joinInfo',
  capability: 'groups_read',
  method: 'joinInfo',
  input: z.strictObject({ code: Code }),
  result: GroupJoinInfo,
  role: 'viewer',
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/groups/join-info',
    summary: 'Look up the group of an invite code',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { code: 'AbCdEfGh123' },
    result: {
      id: GROUP,
      name: 'Team',
      description: null,
      owner: ALICE,
      createdAt: 1_790_000_000,
      participantCount: 3,
    },
  },
});

/** `POST …/groups/join`: joins the group of an invite code. */
export const joinGroup = defineEngineOperation({
  name: 'groups.join',
  capability: 'groups_manage',
  method: 'join',
  input: z.strictObject({ inviteCode: Code }),
  result: z.object({ success: z.literal(true), groupId: z.string() }).meta({ id: 'GroupJoined' }),
  role: 'operator',
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/groups/join',
    summary: 'Join a group by invite code',
    tag: GROUPS,
    success: 200,
  },
  example: { input: { inviteCode: 'AbCdEfGh123' }, result: { success: true, groupId: GROUP } },
});

/** `POST …/groups/{groupId}/leave`. */
export const leaveGroup = defineEngineOperation({
  name: 'groups.leave',
  capability: 'groups_manage',
  method: 'leave',
  input: GroupRef,
  result: Done,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'POST',
    path: '/api/sessions/{sessionId}/groups/{groupId}/leave',
    summary: 'Leave a group',
    tag: GROUPS,
    success: 200,
  },
  example: { input: { groupId: GROUP }, result: { success: true, message: 'Left the group' } },
});
