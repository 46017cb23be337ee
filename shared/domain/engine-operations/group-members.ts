/**
 * The members of a group (openwa-facts §1.4): adding, removing, promoting and demoting people, and the requests to
 * join a group that needs an admin's approval. Each answers a result per person, as WhatsApp decides them one by
 * one (someone's privacy may refuse an add while the others are added).
 */
import { z } from 'zod';
import { GroupId, MembershipRequest, ParticipantList, ParticipantsOutcome } from '../group.js';
import type { OperationRoute } from './engine-operation.js';
import { defineEngineOperation } from './engine-operation.js';

const GROUPS = 'Groups';
const GROUP = '120363025246125411@g.us';
const ALICE = '15550002222@c.us';
const Members = z.strictObject({ groupId: GroupId, participants: ParticipantList });

/** The route of a participants operation at `path` under the group. */
const route = (path: string, summary: string): OperationRoute => ({
  method: 'POST',
  path: `/api/sessions/{sessionId}/groups/{groupId}/${path}`,
  summary,
  tag: GROUPS,
  success: 200,
});

const example = (message: string) => ({
  input: { groupId: GROUP, participants: [ALICE] },
  result: { success: true, message, results: [{ id: ALICE, success: true, status: 200 }] },
});

/** `POST …/groups/{groupId}/participants`: adds people (each may refuse by their privacy: 403 for them). */
export const addParticipants = defineEngineOperation({
  name: 'groups.addParticipants',
  capability: 'groups_manage',
  method: 'addParticipants',
  input: Members,
  result: ParticipantsOutcome,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: route('participants', 'Add participants to a group'),
  example: example('Participants added'),
});

/** `POST …/groups/{groupId}/participants/remove`. */
export const removeParticipants = defineEngineOperation({
  name: 'groups.removeParticipants',
  capability: 'groups_manage',
  method: 'removeParticipants',
  input: Members,
  result: ParticipantsOutcome,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: route('participants/remove', 'Remove participants from a group'),
  example: example('Participants removed'),
});

/** `POST …/groups/{groupId}/participants/promote`: makes members admins. */
export const promoteParticipants = defineEngineOperation({
  name: 'groups.promoteParticipants',
  capability: 'groups_manage',
  method: 'promoteParticipants',
  input: Members,
  result: ParticipantsOutcome,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: route('participants/promote', 'Promote participants to admin'),
  example: example('Participants promoted to admin'),
});

/** `POST …/groups/{groupId}/participants/demote`: makes admins plain members. */
export const demoteParticipants = defineEngineOperation({
  name: 'groups.demoteParticipants',
  capability: 'groups_manage',
  method: 'demoteParticipants',
  input: Members,
  result: ParticipantsOutcome,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: route('participants/demote', 'Demote participants from admin'),
  example: example('Participants demoted from admin'),
});

/** `GET …/groups/{groupId}/membership-requests`: who asked to join (groups that need an admin's approval). */
export const membershipRequests = defineEngineOperation({
  name: 'groups.membershipRequests',
  capability: 'groups_read',
  method: 'membershipRequests',
  input: z.strictObject({ groupId: GroupId }),
  result: z.array(MembershipRequest),
  role: 'viewer',
  chats: { addresses: ['groupId'] },
  http: {
    method: 'GET',
    path: '/api/sessions/{sessionId}/groups/{groupId}/membership-requests',
    summary: 'List the requests to join a group',
    tag: GROUPS,
    success: 200,
  },
  example: {
    input: { groupId: GROUP },
    result: [{ participantId: ALICE, requestedAt: 1_790_000_000, method: 'invite_link' }],
  },
});

/** Approve or reject: the people given, or every pending request when none are. */
const Decision = z.strictObject({ groupId: GroupId, participants: ParticipantList.optional() });

/** `POST …/groups/{groupId}/membership-requests/approve`. */
export const approveRequests = defineEngineOperation({
  name: 'groups.approveRequests',
  capability: 'groups_manage',
  method: 'approveRequests',
  input: Decision,
  result: ParticipantsOutcome,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: route('membership-requests/approve', 'Approve requests to join a group'),
  example: example('Membership requests approved'),
});

/** `POST …/groups/{groupId}/membership-requests/reject`. */
export const rejectRequests = defineEngineOperation({
  name: 'groups.rejectRequests',
  capability: 'groups_manage',
  method: 'rejectRequests',
  input: Decision,
  result: ParticipantsOutcome,
  role: 'operator',
  chats: { addresses: ['groupId'] },
  http: route('membership-requests/reject', 'Reject requests to join a group'),
  example: example('Membership requests rejected'),
});
