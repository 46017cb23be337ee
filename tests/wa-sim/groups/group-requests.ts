/**
 * Joining a group from outside: by its invite link (a join request when the group needs admin approval, filed with
 * the admins and decided by them), or by accepting the private invitation an add refused by privacy answered with.
 */
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';
import { applyParticipants, notifyGroup, phoneOfJid } from './group-changes.js';
import { badGroupRequest, GroupRefusal, requireAdmin } from './group-rules.js';
import { type Group, isAdmin, type JoinRequestMethod, participantNode } from './groups.js';

/** What a join attempt came to. */
export type JoinOutcome = 'added' | 'requested' | 'member';

/** A decision on join requests. */
export type RequestDecision = 'approve' | 'reject';

/** One participant of an approve or reject: `error` 404 when it has no pending request. */
export interface RequestResult {
  readonly jid: string;
  readonly phone?: string;
  readonly error?: '404';
}

/**
 * The requester in a request notification. Baileys takes the requester's number from `phone_number`, falling back
 * to the actor's (the admin's, for a rejection), so it is spelled out.
 */
function requester(sim: Simulator, phone: string): BinaryNode {
  const node = participantNode(sim.directory, phone);
  return makeNode('participant', { ...node.attrs, phone_number: pnJid(phone) });
}

/** The member accounts and contacts a request notification goes to: the admins. */
function admins(group: Group): string[] {
  return [...group.members.keys()].filter((phone) => isAdmin(group, phone));
}

/**
 * `phone` asks to join (through the invite link unless `method` says otherwise). Without approval it joins at once,
 * as the joiner's own add; with approval a request is filed and the admins are told (Baileys: `group.join-request`
 * `created`). Asking again while a request is pending changes nothing.
 */
export function requestToJoin(
  sim: Simulator,
  group: Group,
  phone: string,
  method: JoinRequestMethod = 'invite_link',
): JoinOutcome {
  if (group.members.has(phone)) return 'member';
  if (!group.joinApproval) {
    applyParticipants(sim, group, phone, 'add', [phone]);
    return 'added';
  }
  if (group.requests.has(phone)) return 'requested';
  group.requests.set(phone, { phone, time: unixNow(), method });
  const change = makeNode('created_membership_requests', { request_method: method }, [requester(sim, phone)]);
  notifyGroup(sim, group, phone, change, admins(group));
  return 'requested';
}

/** `phone` takes its pending request back; the admins are told (Baileys: `group.join-request` `revoked`). */
export function cancelJoinRequest(sim: Simulator, group: Group, phone: string): void {
  if (!group.requests.delete(phone)) {
    throw new GroupRefusal(
      404,
      404,
      'item-not-found',
      `${phone} has no pending request to join ${group.jid}`,
    );
  }
  const change = makeNode('revoked_membership_requests', {}, [requester(sim, phone)]);
  notifyGroup(sim, group, phone, change, admins(group));
}

/**
 * An admin approves or rejects pending requests. Approved users join (an `add` by the admin, to every member);
 * rejected ones are dropped and the admins told (Baileys: `group.join-request` `rejected`).
 */
export function decideJoinRequests(
  sim: Simulator,
  group: Group,
  actor: string,
  decision: RequestDecision,
  jids: readonly string[],
): RequestResult[] {
  requireAdmin(group, actor);
  const decided: string[] = [];
  const results = jids.map((jid): RequestResult => {
    const phone = phoneOfJid(sim, jid);
    if (!phone || !group.requests.has(phone) || decided.includes(phone)) return { jid, error: '404' };
    decided.push(phone);
    return { jid, phone };
  });
  if (!decided.length) return results;
  if (decision === 'approve') {
    applyParticipants(sim, group, actor, 'add', decided);
    return results;
  }
  // One notification per requester: Baileys reads only the first participant of one.
  for (const phone of decided) {
    group.requests.delete(phone);
    const change = makeNode('revoked_membership_requests', {}, [requester(sim, phone)]);
    notifyGroup(sim, group, actor, change, admins(group));
  }
  return results;
}

/**
 * `phone` accepts the private invitation `code` (Baileys `groupAcceptInviteV4`): it joins, approval or not, since an
 * admin's add is what the invitation stands for.
 */
export function acceptAddRequest(
  sim: Simulator,
  group: Group,
  phone: string,
  code: string | undefined,
): void {
  const invitation = group.addRequests.get(phone);
  if (!invitation || invitation.code !== code) {
    throw new GroupRefusal(
      404,
      404,
      'item-not-found',
      `${phone} holds no invitation ${code ?? ''} to ${group.jid}`,
    );
  }
  if (invitation.expiration < unixNow()) throw badGroupRequest(`the invitation to ${group.jid} expired`);
  if (group.members.has(phone)) return;
  applyParticipants(sim, group, phone, 'add', [phone]);
}
