/**
 * `iq xmlns=w:g2`: create, metadata, participating list, participants add/remove/promote/demote, subject,
 * description, invite code (get, revoke, join), leave and settings. Changes are pushed to every member
 * account's companions as `notification type=w:gp2`, as the server does.
 */
import { randomBytes } from 'node:crypto';
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
  unixNow,
} from '#tests/wa-sim/transport/binary.js';
import { type Group, groupNode, participantNode } from './groups.js';

const MEMBER_ACTIONS = new Set(['add', 'remove', 'promote', 'demote']);
const SETTINGS: Record<string, (group: Group) => void> = {
  announcement: (group) => {
    group.announce = true;
  },
  not_announcement: (group) => {
    group.announce = false;
  },
  locked: (group) => {
    group.restrict = true;
  },
  unlocked: (group) => {
    group.restrict = false;
  },
};

/** Answers a group iq from a logged-in companion. */
export function handleGroupIq(sim: Simulator, connection: ClientConnection, iq: BinaryNode): BinaryNode {
  const me = connection.device?.account.phone;
  const request = firstChild(iq);
  if (!me || !request) return iqResult(iq);
  if (iq.attrs.to === '@g.us') return handleServerLevel(sim, iq, request, me);
  const group = sim.groups.get(iq.attrs.to);
  if (!group) return iqError(iq, 404, 'item-not-found');
  if (!group.members.has(me)) return iqError(iq, 403, 'forbidden');
  if (request.tag === 'query') return iqResult(iq, [groupNode(sim.directory, group)]);
  if (MEMBER_ACTIONS.has(request.tag)) return changeMembers(sim, iq, group, request, me);
  if (request.tag === 'subject') {
    group.subject = textOf(request) ?? '';
    group.subjectOwner = me;
    group.subjectTime = unixNow();
    notifyGroup(
      sim,
      group,
      me,
      makeNode('subject', { subject: group.subject, s_o: pnJid(me), s_t: String(unixNow()) }),
    );
    return iqResult(iq);
  }
  if (request.tag === 'description') {
    const text = textOf(child(request, 'body'));
    const id = request.attrs.id ?? randomBytes(8).toString('hex');
    group.description = text ? { id, text, owner: me, time: unixNow() } : undefined;
    notifyGroup(sim, group, me, request);
    return iqResult(iq);
  }
  if (request.tag === 'invite') {
    if (iq.attrs.type === 'set') sim.groups.revokeInvite(group);
    return iqResult(iq, [makeNode('invite', { code: group.inviteCode })]);
  }
  if (request.tag === 'ephemeral' || request.tag === 'not_ephemeral') {
    group.ephemeral = request.tag === 'ephemeral' ? Number(request.attrs.expiration ?? 0) : 0;
    notifyGroup(sim, group, me, request);
    return iqResult(iq);
  }
  const setting = SETTINGS[request.tag];
  if (setting) {
    setting(group);
    notifyGroup(sim, group, me, makeNode(request.tag));
  }
  return iqResult(iq);
}

function handleServerLevel(sim: Simulator, iq: BinaryNode, request: BinaryNode, me: string): BinaryNode {
  if (request.tag === 'create') {
    const members = children(request, 'participant')
      .map((node) => sim.directory.phoneOf(node.attrs.jid?.split(/[:@]/)[0] ?? ''))
      .filter((phone): phone is string => phone !== undefined);
    const group = sim.groups.create(me, request.attrs.subject ?? '', members);
    notifyGroup(sim, group, me, makeNode('create', {}, [groupNode(sim.directory, group)]));
    return iqResult(iq, [groupNode(sim.directory, group)]);
  }
  if (request.tag === 'participating') {
    const mine = sim.groups.all().filter((group) => group.members.has(me));
    return iqResult(iq, [
      makeNode(
        'groups',
        {},
        mine.map((group) => groupNode(sim.directory, group)),
      ),
    ]);
  }
  if (request.tag === 'invite' && request.attrs.code) {
    const group = sim.groups.byInviteCode(request.attrs.code);
    if (!group) return iqError(iq, 404, 'item-not-found');
    if (iq.attrs.type === 'get') return iqResult(iq, [groupNode(sim.directory, group)]);
    if (!group.members.has(me)) {
      group.members.set(me, 'member');
      notifyGroup(sim, group, me, makeNode('add', {}, [participantNode(sim.directory, me)]));
    }
    return iqResult(iq, [makeNode('group', { jid: group.jid })]);
  }
  if (request.tag === 'leave') {
    for (const node of children(request, 'group')) {
      const group = sim.groups.get(node.attrs.id);
      if (!group?.members.has(me)) continue;
      notifyGroup(sim, group, me, makeNode('remove', {}, [participantNode(sim.directory, me)]));
      group.members.delete(me);
    }
    return iqResult(iq);
  }
  return iqResult(iq);
}

function changeMembers(
  sim: Simulator,
  iq: BinaryNode,
  group: Group,
  request: BinaryNode,
  me: string,
): BinaryNode {
  const results: BinaryNode[] = [];
  const changed: string[] = [];
  for (const node of children(request, 'participant')) {
    const jid = node.attrs.jid ?? '';
    const phone = sim.directory.phoneOf(jid.split(/[:@]/)[0] ?? '');
    const present = phone !== undefined && group.members.has(phone);
    const error = !phone
      ? '404'
      : request.tag === 'add'
        ? present
          ? '409'
          : undefined
        : present
          ? undefined
          : '404';
    results.push(makeNode('participant', { jid, error }));
    if (phone && !error) changed.push(phone);
  }
  if (request.tag === 'add') for (const phone of changed) group.members.set(phone, 'member');
  if (request.tag === 'promote') for (const phone of changed) group.members.set(phone, 'admin');
  if (request.tag === 'demote') for (const phone of changed) group.members.set(phone, 'member');
  if (changed.length) {
    const participants = changed.map((phone) => participantNode(sim.directory, phone));
    notifyGroup(sim, group, me, makeNode(request.tag, {}, participants));
  }
  if (request.tag === 'remove') for (const phone of changed) group.members.delete(phone);
  return iqResult(iq, [makeNode(request.tag, {}, results)]);
}

/** Pushes a `w:gp2` notification about `group` to every member account's linked companions. */
export function notifyGroup(sim: Simulator, group: Group, actor: string, change: BinaryNode): void {
  const attrs = {
    from: group.jid,
    type: 'w:gp2',
    id: randomBytes(8).toString('hex'),
    t: String(unixNow()),
    participant: pnJid(actor),
    participant_pn: pnJid(actor),
  };
  for (const phone of group.members.keys()) {
    const account = sim.accounts.get(phone);
    if (account) sim.deliverToAccount(account, makeNode('notification', attrs, [change]));
  }
}
