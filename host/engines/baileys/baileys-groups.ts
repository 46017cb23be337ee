/**
 * The Baileys engine's groups port (rows of shared/domain/engine-operations/groups.ts and group-members.ts): each
 * operation is one of Baileys' group IQs (`w:g2`) on the live socket. WhatsApp's refusals are translated: a group the
 * account is not in (404 item-not-found, 403 forbidden) is 404; an operation only admins may do (401 not-authorized)
 * is 403 GROUP_ADMIN_REQUIRED; an unknown invite code is 404. A person's own refusal (privacy, already a member) is
 * their result, not an error. The group's picture is a `w:profile:picture` IQ with the group as its target.
 */
import {
  type GroupMetadata,
  generateProfilePicture,
  type ParticipantAction,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { FileBytes } from '#shared/domain/engine-operations/engine-operation.js';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { GroupInfo, GroupSettings, ParticipantsOutcome } from '#shared/domain/group.js';
import { inviteLinkOf } from '#shared/domain/group.js';
import { ForbiddenError, NotFoundError, ValidationError } from '#shared/errors/app-error.js';
import { toBaileysJid, toNeutralJid } from './baileys-jids.js';

type Groups = PortOperations<'groups'>;

/**
 * The code of a refused IQ: Baileys throws a Boom whose `data` is the `<error code>` (its own HTTP status is 500),
 * or, for what it refuses itself, a Boom with that status.
 */
const statusOf = (error: unknown) => {
  const boom = error as { data?: unknown; output?: { statusCode?: number } } | null;
  const code = Number(boom?.data);
  return Number.isInteger(code) && code > 0 ? code : (boom?.output?.statusCode ?? null);
};
const digitsOf = (jid: string | undefined) => (jid ? (jid.split('@')[0]?.split(':')[0] ?? null) : null);

/**
 * Runs a group IQ, translating WhatsApp's refusals of the group as a whole. A read the network refuses (`read`) means
 * the account is not in the group, whatever the code; a change refused with 401 means it is not an admin.
 */
async function onGroup<T>(groupId: string, call: () => Promise<T>, read = false): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const status = statusOf(error);
    if (status === 403 || status === 404 || status === 406 || (read && status === 401)) {
      throw new NotFoundError(`Group ${groupId} not found`, { cause: error });
    }
    if (status === 401) {
      throw new ForbiddenError('GROUP_ADMIN_REQUIRED', `Only an admin of ${groupId} may do this`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** A group as the API answers it. */
export function groupInfoOf(metadata: GroupMetadata): GroupInfo {
  return {
    id: toNeutralJid(metadata.id),
    name: metadata.subject,
    description: metadata.desc ?? null,
    owner: metadata.owner ? toNeutralJid(metadata.ownerPn ?? metadata.owner) : null,
    createdAt: metadata.creation ?? null,
    isReadOnly: metadata.restrict === true,
    isAnnounce: metadata.announce === true,
    linkedParentJID: metadata.linkedParent ? toNeutralJid(metadata.linkedParent) : null,
    participants: metadata.participants.map((participant) => {
      const phone = participant.id.endsWith('@lid') ? participant.phoneNumber : participant.id;
      const lid = participant.id.endsWith('@lid') ? participant.id : participant.lid;
      return {
        id: toNeutralJid(participant.id),
        number: digitsOf(phone),
        lid: lid ? toNeutralJid(lid) : null,
        isAdmin: participant.admin === 'admin' || participant.admin === 'superadmin',
        isSuperAdmin: participant.admin === 'superadmin',
      };
    }),
  };
}

function settingsOf(metadata: GroupMetadata): GroupSettings {
  return {
    announce: metadata.announce === true,
    locked: metadata.restrict === true,
    ephemeralSeconds: metadata.ephemeralDuration ?? 0,
    memberAddMode: metadata.memberAddMode ? 'all' : 'admins',
  };
}

/** Each person's result of a participants IQ (`status` 200 when done), with an answer's success and message. */
function outcomeOf(
  asked: readonly string[],
  answered: readonly { status: string; jid?: string | undefined }[],
  message: string,
): ParticipantsOutcome {
  const byPerson = new Map(answered.map((entry) => [toNeutralJid(entry.jid ?? ''), Number(entry.status)]));
  const results = asked.map((id) => {
    const status = byPerson.get(id) ?? 200;
    return { id, success: status === 200, status };
  });
  return { success: results.some((result) => result.success), message, results };
}

export class BaileysGroups implements Groups {
  constructor(private readonly socket: () => WASocket | null) {}

  private open(): WASocket {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket;
  }

  private metadata(groupId: string): Promise<GroupMetadata> {
    const socket = this.open();
    return onGroup(groupId, () => socket.groupMetadata(groupId), true);
  }

  async list({ limit, offset }: { limit: number; offset: number }) {
    const all = Object.values(await this.open().groupFetchAllParticipating());
    return all
      .sort((a, b) => a.id.localeCompare(b.id))
      .slice(offset, offset + limit)
      .map((group) => ({
        id: toNeutralJid(group.id),
        name: group.subject,
        linkedParentJID: group.linkedParent ? toNeutralJid(group.linkedParent) : null,
      }));
  }

  async get({ groupId }: { groupId: string }) {
    return groupInfoOf(await this.metadata(groupId));
  }

  async create({ name, participants }: { name: string; participants: string[] }) {
    const created = await this.open().groupCreate(name, participants.map(toBaileysJid));
    return {
      id: toNeutralJid(created.id),
      name: created.subject,
      participantsCount: created.participants.length,
      isAdmin: true,
      linkedParentJID: created.linkedParent ? toNeutralJid(created.linkedParent) : null,
    };
  }

  async setSubject({ groupId, subject }: { groupId: string; subject: string }) {
    const socket = this.open();
    await onGroup(groupId, () => socket.groupUpdateSubject(groupId, subject));
    return { success: true as const, message: 'Group subject updated' };
  }

  async setDescription({ groupId, description }: { groupId: string; description: string }) {
    const socket = this.open();
    await onGroup(groupId, () => socket.groupUpdateDescription(groupId, description || undefined));
    return { success: true as const, message: 'Group description updated' };
  }

  async picture({ groupId }: { groupId: string }) {
    const socket = this.open();
    const url = await socket.profilePictureUrl(groupId, 'image').catch(async (error: unknown) => {
      // Another refusal means the account is not in the group (a read). No picture is 404 item-not-found, which
      // the network may answer for a group the account is not in as well: the group's own read tells them apart.
      if (statusOf(error) !== 404) return onGroup(groupId, () => Promise.reject(error), true);
      await this.metadata(groupId);
      return null;
    });
    return { url: url ?? null };
  }

  async setPicture({ groupId, image }: { groupId: string; image: FileBytes }) {
    // The picture WhatsApp takes (a 640×640 JPEG, made with sharp), made first so an image sharp cannot read is the
    // request's fault (400) rather than the network's; Baileys makes it again from this JPEG, which is cheap.
    const { img } = await generateProfilePicture(Buffer.from(image.bytes)).catch((error: unknown) => {
      throw new ValidationError(`The image could not be read as a ${image.mimetype} picture`, {
        code: 'MEDIA_TYPE_NOT_ALLOWED',
        cause: error,
      });
    });
    const socket = this.open();
    await onGroup(groupId, () => socket.updateProfilePicture(groupId, img));
    return { success: true as const, message: 'Group picture updated' };
  }

  async removePicture({ groupId }: { groupId: string }) {
    const socket = this.open();
    await onGroup(groupId, () => socket.removeProfilePicture(groupId));
    return { success: true as const, message: 'Group picture removed' };
  }

  async settings({ groupId }: { groupId: string }) {
    return settingsOf(await this.metadata(groupId));
  }

  async updateSettings(input: {
    groupId: string;
    announce?: boolean | undefined;
    locked?: boolean | undefined;
    ephemeralSeconds?: number | undefined;
    memberAddMode?: 'all' | 'admins' | undefined;
  }) {
    const { groupId } = input;
    const socket = this.open();
    await onGroup(groupId, async () => {
      if (input.announce !== undefined)
        await socket.groupSettingUpdate(groupId, input.announce ? 'announcement' : 'not_announcement');
      if (input.locked !== undefined)
        await socket.groupSettingUpdate(groupId, input.locked ? 'locked' : 'unlocked');
      if (input.ephemeralSeconds !== undefined)
        await socket.groupToggleEphemeral(groupId, input.ephemeralSeconds);
      if (input.memberAddMode !== undefined)
        await socket.groupMemberAddMode(
          groupId,
          input.memberAddMode === 'all' ? 'all_member_add' : 'admin_add',
        );
    });
    return this.settings({ groupId });
  }

  async inviteCode({ groupId }: { groupId: string }) {
    const socket = this.open();
    const code = (await onGroup(groupId, () => socket.groupInviteCode(groupId))) ?? '';
    return { inviteCode: code, inviteLink: inviteLinkOf(code) };
  }

  async revokeInvite({ groupId }: { groupId: string }) {
    const socket = this.open();
    const code = (await onGroup(groupId, () => socket.groupRevokeInvite(groupId))) ?? '';
    return {
      inviteCode: code,
      inviteLink: inviteLinkOf(code),
      message: 'Invite code revoked and new one generated',
    };
  }

  async joinInfo({ code }: { code: string }) {
    const socket = this.open();
    const info = await onGroup(`with invite code ${code}`, () => socket.groupGetInviteInfo(code));
    return {
      id: toNeutralJid(info.id),
      name: info.subject,
      description: info.desc ?? null,
      owner: info.owner ? toNeutralJid(info.ownerPn ?? info.owner) : null,
      createdAt: info.creation ?? null,
      participantCount: info.size ?? info.participants.length,
    };
  }

  async join({ inviteCode }: { inviteCode: string }) {
    const socket = this.open();
    const groupId = await onGroup(`with invite code ${inviteCode}`, () =>
      socket.groupAcceptInvite(inviteCode),
    );
    if (!groupId) throw new NotFoundError(`Group with invite code ${inviteCode} not found`);
    return { success: true as const, groupId: toNeutralJid(groupId) };
  }

  async leave({ groupId }: { groupId: string }) {
    const socket = this.open();
    await onGroup(groupId, () => socket.groupLeave(groupId));
    return { success: true as const, message: 'Left the group' };
  }

  private async participants(
    groupId: string,
    participants: string[],
    action: ParticipantAction,
    message: string,
  ) {
    const socket = this.open();
    const answered = await onGroup(groupId, () =>
      socket.groupParticipantsUpdate(groupId, participants.map(toBaileysJid), action),
    );
    return outcomeOf(participants, answered, message);
  }

  addParticipants({ groupId, participants }: { groupId: string; participants: string[] }) {
    return this.participants(groupId, participants, 'add', 'Participants added');
  }

  removeParticipants({ groupId, participants }: { groupId: string; participants: string[] }) {
    return this.participants(groupId, participants, 'remove', 'Participants removed');
  }

  promoteParticipants({ groupId, participants }: { groupId: string; participants: string[] }) {
    return this.participants(groupId, participants, 'promote', 'Participants promoted to admin');
  }

  demoteParticipants({ groupId, participants }: { groupId: string; participants: string[] }) {
    return this.participants(groupId, participants, 'demote', 'Participants demoted from admin');
  }

  async membershipRequests({ groupId }: { groupId: string }) {
    const socket = this.open();
    const requests = await onGroup(groupId, () => socket.groupRequestParticipantsList(groupId));
    return requests.map((request) => ({
      participantId: toNeutralJid(String(request.jid ?? '')),
      requestedAt: request.request_time ? Number(request.request_time) : null,
      method: request.request_method ? String(request.request_method) : null,
    }));
  }

  private async decide(groupId: string, participants: string[] | undefined, action: 'approve' | 'reject') {
    const asked = participants ?? (await this.membershipRequests({ groupId })).map((r) => r.participantId);
    const message = action === 'approve' ? 'Membership requests approved' : 'Membership requests rejected';
    if (asked.length === 0) return { success: true, message, results: [] };
    const socket = this.open();
    const answered = await onGroup(groupId, () =>
      socket.groupRequestParticipantsUpdate(groupId, asked.map(toBaileysJid), action),
    );
    return outcomeOf(asked, answered, message);
  }

  approveRequests({ groupId, participants }: { groupId: string; participants?: string[] | undefined }) {
    return this.decide(groupId, participants, 'approve');
  }

  rejectRequests({ groupId, participants }: { groupId: string; participants?: string[] | undefined }) {
    return this.decide(groupId, participants, 'reject');
  }
}
