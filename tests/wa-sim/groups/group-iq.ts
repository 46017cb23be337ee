/**
 * `iq xmlns=w:g2`: create, metadata, participating list, participants add/remove/promote/demote, subject,
 * description, invite code (get, revoke, info, join), leave, settings (announcement, locked, ephemeral, member add
 * mode, join approval), join requests (list, approve, reject) and private invitations (accept). The rules and the
 * `w:gp2` notifications are `group-changes.ts`'s; a refusal answers the iq error it carries.
 */
import type { ClientConnection } from '#tests/wa-sim/accounts/accounts.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import {
  type BinaryNode,
  child,
  children,
  firstChild,
  iqError,
  iqResult,
  makeNode,
  pnJid,
  textOf,
} from '#tests/wa-sim/transport/binary.js';
import {
  changeParticipants,
  inviteCode,
  leaveGroup,
  notifyGroup,
  type ParticipantAction,
  phoneOfJid,
  setAnnounce,
  setDescription,
  setEphemeral,
  setJoinApproval,
  setLocked,
  setMemberAddMode,
  setSubject,
} from './group-changes.js';
import { acceptAddRequest, decideJoinRequests, requestToJoin } from './group-requests.js';
import { answerGroupIq, badGroupRequest, GroupRefusal, requireAdmin, requireMember } from './group-rules.js';
import { type Group, groupNode, MEMBER_ADD_MODES, type MemberAddMode } from './groups.js';

const PARTICIPANT_ACTIONS: readonly ParticipantAction[] = ['add', 'remove', 'promote', 'demote'];

/** A change to one group answered with a bare result. */
type GroupChange = (sim: Simulator, group: Group, me: string, request: BinaryNode) => void;

/** A request about one group answered with content. */
type GroupQuery = (
  sim: Simulator,
  group: Group,
  me: string,
  request: BinaryNode,
  iq: BinaryNode,
) => BinaryNode[];

const CHANGES: Record<string, GroupChange> = {
  announcement: (sim, group, me) => setAnnounce(sim, group, me, true),
  not_announcement: (sim, group, me) => setAnnounce(sim, group, me, false),
  locked: (sim, group, me) => setLocked(sim, group, me, true),
  unlocked: (sim, group, me) => setLocked(sim, group, me, false),
  ephemeral: (sim, group, me, request) => setEphemeral(sim, group, me, Number(request.attrs.expiration ?? 0)),
  not_ephemeral: (sim, group, me) => setEphemeral(sim, group, me, 0),
  subject: (sim, group, me, request) => setSubject(sim, group, me, textOf(request) ?? ''),
  description: (sim, group, me, request) =>
    setDescription(sim, group, me, textOf(child(request, 'body')), request.attrs.id),
  member_add_mode: (sim, group, me, request) => setMemberAddMode(sim, group, me, addModeOf(request)),
  membership_approval_mode: (sim, group, me, request) => {
    const state = child(request, 'group_join')?.attrs.state;
    if (state !== 'on' && state !== 'off') throw badGroupRequest(`group_join state "${state ?? ''}"`);
    setJoinApproval(sim, group, me, state === 'on');
  },
};

const QUERIES: Record<string, GroupQuery> = {
  query: (sim, group) => [groupNode(sim.directory, group)],
  invite: (sim, group, me, _request, iq) => [
    makeNode('invite', { code: inviteCode(sim, group, me, iq.attrs.type === 'set') }),
  ],
  membership_approval_requests: (_sim, group, me) => {
    requireAdmin(group, me);
    const requests = [...group.requests.values()].map((request) =>
      makeNode('membership_approval_request', {
        jid: pnJid(request.phone),
        request_time: String(request.time),
        request_method: request.method,
      }),
    );
    return [makeNode('membership_approval_requests', {}, requests)];
  },
  membership_requests_action: (sim, group, me, request) => {
    const decision = firstChild(request);
    if (decision?.tag !== 'approve' && decision?.tag !== 'reject') {
      throw badGroupRequest('membership_requests_action needs <approve> or <reject>');
    }
    const jids = children(decision, 'participant').map((node) => node.attrs.jid ?? '');
    const results = decideJoinRequests(sim, group, me, decision.tag, jids);
    const nodes = results.map(({ jid, error }) => makeNode('participant', { jid, error }));
    return [makeNode('membership_requests_action', {}, [makeNode(decision.tag, {}, nodes)])];
  },
};

function addModeOf(request: BinaryNode): MemberAddMode {
  const mode = textOf(request);
  const known = MEMBER_ADD_MODES.find((candidate) => candidate === mode);
  if (!known) throw badGroupRequest(`member_add_mode "${mode ?? ''}"`);
  return known;
}

/** Answers a group iq from a logged-in companion. */
export function handleGroupIq(sim: Simulator, connection: ClientConnection, iq: BinaryNode): BinaryNode {
  const me = connection.device?.account.phone;
  const request = firstChild(iq);
  if (!me || !request) return iqResult(iq);
  return answerGroupIq(iq, () => {
    if (iq.attrs.to === '@g.us') return iqResult(iq, handleServerLevel(sim, iq, request, me));
    const group = sim.groups.get(iq.attrs.to);
    if (!group) return iqError(iq, 404, 'item-not-found');
    return iqResult(iq, handleInGroup(sim, group, me, request, iq));
  });
}

function handleInGroup(
  sim: Simulator,
  group: Group,
  me: string,
  request: BinaryNode,
  iq: BinaryNode,
): BinaryNode[] {
  // A private invitation is accepted by someone who is not a member yet.
  if (request.tag === 'accept') {
    acceptAddRequest(sim, group, me, request.attrs.code);
    return [];
  }
  requireMember(group, me);
  const action = PARTICIPANT_ACTIONS.find((candidate) => candidate === request.tag);
  if (action) {
    const jids = children(request, 'participant').map((node) => node.attrs.jid ?? '');
    const results = changeParticipants(sim, group, me, action, jids);
    const nodes = results.map(({ jid, error, addRequest }) =>
      makeNode(
        'participant',
        { jid, error },
        addRequest
          ? [makeNode('add_request', { code: addRequest.code, expiration: String(addRequest.expiration) })]
          : undefined,
      ),
    );
    return [makeNode(action, {}, nodes)];
  }
  const query = QUERIES[request.tag];
  if (query) return query(sim, group, me, request, iq);
  const change = CHANGES[request.tag];
  if (change) {
    change(sim, group, me, request);
    return [];
  }
  sim.warnOnce(`w:g2:${request.tag}`, `unhandled w:g2 <${request.tag}>; answered with a bare result`);
  return [];
}

function handleServerLevel(sim: Simulator, iq: BinaryNode, request: BinaryNode, me: string): BinaryNode[] {
  if (request.tag === 'create') {
    const members = children(request, 'participant')
      .map((node) => phoneOfJid(sim, node.attrs.jid ?? ''))
      .filter((phone): phone is string => phone !== undefined);
    const group = sim.groups.create(me, request.attrs.subject ?? '', members);
    notifyGroup(sim, group, me, makeNode('create', {}, [groupNode(sim.directory, group)]));
    return [groupNode(sim.directory, group)];
  }
  if (request.tag === 'participating') {
    const mine = sim.groups.all().filter((group) => group.members.has(me));
    return [
      makeNode(
        'groups',
        {},
        mine.map((group) => groupNode(sim.directory, group)),
      ),
    ];
  }
  if (request.tag === 'invite' && request.attrs.code) {
    const group = sim.groups.byInviteCode(request.attrs.code);
    if (!group)
      throw new GroupRefusal(404, 404, 'item-not-found', `no group has invite ${request.attrs.code}`);
    // The invite's info (Baileys `groupGetInviteInfo`) is the group node, as to a member.
    if (iq.attrs.type === 'get') return [groupNode(sim.directory, group)];
    // Joining a group that needs approval files a request, answered as whatsmeow reads it.
    if (requestToJoin(sim, group, me) === 'requested') {
      return [makeNode('membership_approval_request', { jid: group.jid })];
    }
    return [makeNode('group', { jid: group.jid })];
  }
  if (request.tag === 'leave') {
    for (const node of children(request, 'group')) {
      const group = sim.groups.get(node.attrs.id);
      if (group?.members.has(me)) leaveGroup(sim, group, me);
    }
    return [];
  }
  return [];
}
