/**
 * Admin routes for groups: the list, one group as its members see it, and what a simulated member (a contact or
 * another linked account) does to it, under the rules and with the notifications a companion's iq gets; and the
 * files of the groups' pictures.
 */
import { randomUUID } from 'node:crypto';
import { renderPicture } from '#tests/wa-sim/accounts/profile-picture.js';
import {
  changeParticipants,
  inviteCode,
  leaveGroup,
  setAnnounce,
  setDescription,
  setEphemeral,
  setJoinApproval,
  setLocked,
  setMemberAddMode,
  setSubject,
} from '#tests/wa-sim/groups/group-changes.js';
import {
  GROUP_PICTURE_PATH,
  groupPictureFile,
  pictureView,
  removeGroupPicture,
  setGroupPicture,
} from '#tests/wa-sim/groups/group-picture.js';
import {
  acceptAddRequest,
  cancelJoinRequest,
  decideJoinRequests,
  requestToJoin,
} from '#tests/wa-sim/groups/group-requests.js';
import type { Group } from '#tests/wa-sim/groups/groups.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { notFound } from '#tests/wa-sim/support/errors.js';
import { pnJid } from '#tests/wa-sim/transport/binary.js';
import {
  type GroupAction,
  GroupActionBody,
  GroupRequestBody,
  parseBody,
  type Route,
} from './admin-schemas.js';

function groupOf(sim: Simulator, jid: string | undefined): Group {
  const group = sim.groups.get(jid);
  if (!group) throw notFound(`no group ${jid ?? ''}`);
  return group;
}

/** A user the network knows (a linked account or a contact), by number; 404 otherwise. */
function knownUser(sim: Simulator, number: string): string {
  const phone = sim.directory.phoneOf(number);
  if (!phone) throw notFound(`no account or contact ${number}`);
  return phone;
}

function isoOf(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/** The group as its members see it (and, for its admins, its requests and invitations). */
export function groupView(group: Group): Record<string, unknown> {
  return {
    jid: group.jid,
    subject: group.subject,
    description: group.description?.text ?? null,
    owner: group.creator,
    creation: group.creation,
    announce: group.announce,
    restrict: group.restrict,
    ephemeral: group.ephemeral,
    memberAddMode: group.memberAddMode,
    joinApproval: group.joinApproval,
    inviteCode: group.inviteCode,
    picture: pictureView(group.picture),
    members: [...group.members].map(([number, role]) => ({ number, role })),
    requests: [...group.requests.values()].map(({ phone, time, method }) => ({
      number: phone,
      requestedAt: isoOf(time),
      method,
    })),
    invitations: [...group.addRequests].map(([number, { code, expiration, inviter }]) => ({
      number,
      code,
      expiresAt: isoOf(expiration),
      inviter,
    })),
  };
}

/** Applies a member's action; answers what the action adds to the reply (per-number results, a new code). */
function applyAction(sim: Simulator, group: Group, action: GroupAction): Record<string, unknown> {
  const by = knownUser(sim, action.by);
  switch (action.action) {
    case 'subject':
      setSubject(sim, group, by, action.subject);
      return {};
    case 'description':
      setDescription(sim, group, by, action.description || undefined);
      return {};
    case 'add':
    case 'remove':
    case 'promote':
    case 'demote': {
      const results = changeParticipants(
        sim,
        group,
        by,
        action.action,
        action.numbers.map((n) => pnJid(n)),
      );
      return {
        results: results.map(({ error, addRequest }, index) => ({
          number: action.numbers[index],
          status: error ?? '200',
          ...(addRequest
            ? { invitation: { code: addRequest.code, expiresAt: isoOf(addRequest.expiration) } }
            : {}),
        })),
      };
    }
    case 'approve':
    case 'reject': {
      const results = decideJoinRequests(
        sim,
        group,
        by,
        action.action,
        action.numbers.map((n) => pnJid(n)),
      );
      return {
        results: results.map(({ error }, index) => ({
          number: action.numbers[index],
          status: error ?? '200',
        })),
      };
    }
    case 'announce':
      setAnnounce(sim, group, by, action.on);
      return {};
    case 'locked':
      setLocked(sim, group, by, action.on);
      return {};
    case 'joinApproval':
      setJoinApproval(sim, group, by, action.on);
      return {};
    case 'ephemeral':
      setEphemeral(sim, group, by, action.expiration);
      return {};
    case 'memberAddMode':
      setMemberAddMode(sim, group, by, action.mode);
      return {};
    case 'leave':
      leaveGroup(sim, group, by);
      return {};
    case 'revokeInvite':
      return { inviteCode: inviteCode(sim, group, by, true) };
    case 'acceptInvite':
      acceptAddRequest(sim, group, by, group.addRequests.get(by)?.code);
      return {};
    case 'picture':
      // A picture of its own colour each time, so each set is a different file.
      setGroupPicture(sim, group, by, renderPicture(randomUUID()), 'image/png');
      return {};
    case 'removePicture':
      removeGroupPicture(sim, group, by);
      return {};
  }
}

/** Routes under `/admin/groups`. */
export const groupRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/admin\/groups$/,
    handle: (sim) => ({
      body: sim.groups.all().map((group) => ({
        jid: group.jid,
        subject: group.subject,
        members: Object.fromEntries(group.members),
        inviteCode: group.inviteCode,
        creation: group.creation,
      })),
    }),
  },
  {
    method: 'GET',
    pattern: /^\/admin\/groups\/([^/]+)$/,
    handle: (sim, [jid]) => ({ body: groupView(groupOf(sim, jid)) }),
  },
  {
    method: 'POST',
    pattern: /^\/admin\/groups\/([^/]+)\/actions$/,
    handle: (sim, [jid], body) => {
      const group = groupOf(sim, jid);
      const action = parseBody(GroupActionBody, body);
      const outcome = applyAction(sim, group, action);
      return { body: { action: action.action, by: action.by, ...outcome, group: groupView(group) } };
    },
  },
  {
    method: 'GET',
    pattern: new RegExp(`^${GROUP_PICTURE_PATH}([^/]+)/([^/]+)$`),
    handle: (sim, [groupId = '', pictureId = '']) => {
      const picture = groupPictureFile(sim, groupId, pictureId);
      if (!picture) throw notFound(`no picture ${pictureId} of group ${groupId}`);
      return { body: picture.bytes, contentType: picture.mimetype };
    },
  },
  {
    method: 'POST',
    pattern: /^\/admin\/groups\/([^/]+)\/requests$/,
    handle: (sim, [jid], body) => {
      const group = groupOf(sim, jid);
      const { number, action } = parseBody(GroupRequestBody, body);
      const phone = knownUser(sim, number);
      if (action === 'cancel') {
        cancelJoinRequest(sim, group, phone);
        return { body: { number, outcome: 'cancelled', group: groupView(group) } };
      }
      return { body: { number, outcome: requestToJoin(sim, group, phone), group: groupView(group) } };
    },
  },
];
