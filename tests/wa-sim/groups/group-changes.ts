/**
 * The changes a member makes to a group, checked against `group-rules.ts` and pushed to every member account's
 * companions as `notification type=w:gp2`, as the server does. The w:g2 iq (`group-iq.ts`) and the admin API's
 * member actions (`admin/admin-groups.ts`) both come through here, so a contact's change reaches a gateway exactly
 * as a companion's would.
 */
import { randomBytes } from 'node:crypto';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, makeNode, parseJid, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';
import { requireAdder, requireAdmin, requireInfoEditor, requireMember } from './group-rules.js';
import {
  type AddRequest,
  approvalModeNode,
  type Group,
  type MemberAddMode,
  participantNode,
} from './groups.js';

/** What an admin can do to members. */
export type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote';

/** The server's answer for one participant of an add, remove, promote or demote. */
export interface ParticipantResult {
  /** The jid as asked. */
  readonly jid: string;
  /** Who it is, when known. */
  readonly phone?: string;
  /**
   * WhatsApp's code when this one was not changed: `403` its privacy settings refuse the add (an invitation is issued
   * instead, `addRequest`), `404` an unknown user or (remove, promote, demote) not a member, `409` already a member.
   */
  readonly error?: '403' | '404' | '409';
  readonly addRequest?: AddRequest;
}

/**
 * Pushes a notification about `group` (`w:gp2`, or `picture` for its picture) to the companions of every member
 * account (or of `recipients`).
 */
export function notifyGroup(
  sim: Simulator,
  group: Group,
  actor: string,
  change: BinaryNode,
  recipients: Iterable<string> = group.members.keys(),
  type: 'w:gp2' | 'picture' = 'w:gp2',
): void {
  const attrs = {
    from: group.jid,
    type,
    id: randomBytes(8).toString('hex'),
    t: String(unixNow()),
    participant: pnJid(actor),
    participant_pn: pnJid(actor),
  };
  for (const phone of recipients) {
    const account = sim.accounts.get(phone);
    if (account) sim.deliverToAccount(account, makeNode('notification', attrs, [change]));
  }
}

/** The phone number behind a user jid in number or LID form. */
export function phoneOfJid(sim: Simulator, jid: string): string | undefined {
  const user = parseJid(jid)?.user;
  return user ? sim.directory.phoneOf(user) : undefined;
}

/** Adds, removes, promotes or demotes the users `jids` name; answers one result per jid, in order. */
export function changeParticipants(
  sim: Simulator,
  group: Group,
  actor: string,
  action: ParticipantAction,
  jids: readonly string[],
): ParticipantResult[] {
  if (action === 'add') requireAdder(group, actor);
  else requireAdmin(group, actor);
  const changed = new Set<string>();
  const results = jids.map((jid): ParticipantResult => {
    const phone = phoneOfJid(sim, jid);
    if (!phone) return { jid, error: '404' };
    const present = group.members.has(phone) || (action === 'add' && changed.has(phone));
    if (action !== 'add') {
      if (!present) return { jid, phone, error: '404' };
    } else if (present) {
      return { jid, phone, error: '409' };
    } else if (sim.contacts.get(phone)?.config.groupAdd === 'nobody') {
      return { jid, phone, error: '403', addRequest: sim.groups.issueAddRequest(group, phone, actor) };
    }
    changed.add(phone);
    return { jid, phone };
  });
  if (changed.size) applyParticipants(sim, group, actor, action, [...changed]);
  return results;
}

/** Applies a checked participant change and tells the members (a removed member hears of its own removal). */
export function applyParticipants(
  sim: Simulator,
  group: Group,
  actor: string,
  action: ParticipantAction,
  phones: readonly string[],
): void {
  for (const phone of phones) {
    if (action === 'add') {
      group.members.set(phone, 'member');
      group.requests.delete(phone);
      group.addRequests.delete(phone);
    }
    if (action === 'promote' && group.members.get(phone) === 'member') group.members.set(phone, 'admin');
    if (action === 'demote') group.members.set(phone, 'member');
  }
  const participants = phones.map((phone) => participantNode(sim.directory, phone));
  notifyGroup(sim, group, actor, makeNode(action, {}, participants));
  if (action === 'remove') for (const phone of phones) group.members.delete(phone);
}

/** A member leaves: the others (and its own companions) see it removed by itself, which Baileys calls a leave. */
export function leaveGroup(sim: Simulator, group: Group, actor: string): void {
  requireMember(group, actor);
  notifyGroup(sim, group, actor, makeNode('remove', {}, [participantNode(sim.directory, actor)]));
  group.members.delete(actor);
}

/** Renames the group. */
export function setSubject(sim: Simulator, group: Group, actor: string, subject: string): void {
  requireInfoEditor(group, actor);
  group.subject = subject;
  group.subjectOwner = actor;
  group.subjectTime = unixNow();
  const change = makeNode('subject', { subject, s_o: pnJid(actor), s_t: String(group.subjectTime) });
  notifyGroup(sim, group, actor, change);
}

/** Sets the description, or deletes it when `text` is empty. */
export function setDescription(
  sim: Simulator,
  group: Group,
  actor: string,
  text: string | undefined,
  id = randomBytes(8).toString('hex').toUpperCase(),
): void {
  requireInfoEditor(group, actor);
  group.description = text ? { id, text, owner: actor, time: unixNow() } : undefined;
  const body = text ? makeNode('body', {}, Buffer.from(text, 'utf8')) : makeNode('delete');
  notifyGroup(sim, group, actor, makeNode('description', { id }, [body]));
}

/** Only admins send messages (`announcement`), or everyone. */
export function setAnnounce(sim: Simulator, group: Group, actor: string, on: boolean): void {
  requireAdmin(group, actor);
  group.announce = on;
  notifyGroup(sim, group, actor, makeNode(on ? 'announcement' : 'not_announcement'));
}

/** Only admins edit the group's info (`locked`), or every member. */
export function setLocked(sim: Simulator, group: Group, actor: string, on: boolean): void {
  requireAdmin(group, actor);
  group.restrict = on;
  notifyGroup(sim, group, actor, makeNode(on ? 'locked' : 'unlocked'));
}

/** Turns disappearing messages on (`expiration` seconds) or off (0). */
export function setEphemeral(sim: Simulator, group: Group, actor: string, expiration: number): void {
  requireInfoEditor(group, actor);
  group.ephemeral = expiration;
  const change = expiration
    ? makeNode('ephemeral', { expiration: String(expiration) })
    : makeNode('not_ephemeral');
  notifyGroup(sim, group, actor, change);
}

/** Who may add members. */
export function setMemberAddMode(sim: Simulator, group: Group, actor: string, mode: MemberAddMode): void {
  requireAdmin(group, actor);
  group.memberAddMode = mode;
  notifyGroup(sim, group, actor, makeNode('member_add_mode', {}, mode));
}

/** Whether joining needs an admin's approval; requests already filed stay pending either way. */
export function setJoinApproval(sim: Simulator, group: Group, actor: string, on: boolean): void {
  requireAdmin(group, actor);
  group.joinApproval = on;
  notifyGroup(sim, group, actor, approvalModeNode(on));
}

/** The invite code, replaced first when `revoke`; admins only. */
export function inviteCode(sim: Simulator, group: Group, actor: string, revoke: boolean): string {
  requireAdmin(group, actor);
  return revoke ? sim.groups.revokeInvite(group) : group.inviteCode;
}
