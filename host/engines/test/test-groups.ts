/**
 * Groups on the test network and the test engine's groups port over them. The network keeps every group (members
 * with their roles, subject, description, settings, invite code, join requests); a session's account acts as the
 * member its linked phone number is. As WhatsApp does, a group the account is not in is 404 to it, changes only
 * admins may make are refused to others (403), each person of a participants operation gets a result of their own
 * (200; 404 not on WhatsApp; 409 already in; 406 not in), and every change is told to the session as `groupChanged`.
 * The group's picture is any member's to change until the group is locked.
 */
import { createHash } from 'node:crypto';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import type { GroupInfo, GroupSettings, ParticipantsOutcome } from '#shared/domain/group.js';
import { inviteLinkOf } from '#shared/domain/group.js';
import { ForbiddenError, NotFoundError } from '#shared/errors/app-error.js';
import type { EngineEmitter, GroupChange } from '../engine-events.js';
import type { TestDirectory } from './test-contacts.js';

export interface TestGroup {
  id: string;
  subject: string;
  description: string | null;
  owner: string;
  creation: number;
  members: Map<string, 'member' | 'admin' | 'superadmin'>;
  settings: GroupSettings;
  inviteCode: string;
  /** Who asked to join, with when (epoch seconds). */
  requests: Map<string, number>;
  /** The URL of its picture; none when absent or null. */
  picture?: string | null;
}

export class TestGroups {
  readonly groups = new Map<string, TestGroup>();
  private counter = 0;

  create(owner: string, subject: string, members: readonly string[]): TestGroup {
    this.counter += 1;
    const id = `1203630000${String(this.counter).padStart(8, '0')}@g.us`;
    const group: TestGroup = {
      id,
      subject,
      description: null,
      owner,
      creation: Math.floor(Date.now() / 1000),
      members: new Map([[owner, 'superadmin'], ...members.map((m) => [m, 'member'] as const)]),
      settings: { announce: false, locked: false, ephemeralSeconds: 0, memberAddMode: 'admins' },
      inviteCode: `CODE${this.counter}x${Math.random().toString(36).slice(2, 10)}`,
      requests: new Map(),
    };
    this.groups.set(id, group);
    return group;
  }

  /** Puts a group on the network as given (tests set up the groups their requests name). */
  put(group: TestGroup): void {
    this.groups.set(group.id, group);
  }

  byCode(code: string): TestGroup | undefined {
    return [...this.groups.values()].find((group) => group.inviteCode === code);
  }
}

export function infoOf(group: TestGroup): GroupInfo {
  return {
    id: group.id,
    name: group.subject,
    description: group.description,
    owner: group.owner,
    createdAt: group.creation,
    isReadOnly: group.settings.locked,
    isAnnounce: group.settings.announce,
    linkedParentJID: null,
    participants: [...group.members].map(([id, role]) => ({
      id,
      number: id.endsWith('@c.us') ? id.slice(0, -'@c.us'.length) : null,
      lid: id.endsWith('@lid') ? id : null,
      isAdmin: role !== 'member',
      isSuperAdmin: role === 'superadmin',
    })),
  };
}

interface Context {
  groups: TestGroups;
  directory: TestDirectory;
  /** The account's own id (`<phone>@c.us`), while linked. */
  me: () => string;
  emit: EngineEmitter['emit'];
  open: () => boolean;
}

/** The test engine's groups port for one session. */
export function testGroups(ctx: Context): PortOperations<'groups'> {
  const live = () => {
    if (!ctx.open()) throw new Error('connection closed');
  };
  const member = (groupId: string) => {
    live();
    const group = ctx.groups.groups.get(groupId);
    if (!group?.members.has(ctx.me())) throw new NotFoundError(`Group ${groupId} not found`);
    return group;
  };
  const admin = (groupId: string) => {
    const group = member(groupId);
    if (group.members.get(ctx.me()) === 'member') {
      throw new ForbiddenError('GROUP_ADMIN_REQUIRED', `Only an admin of ${groupId} may do this`);
    }
    return group;
  };
  /** The group's info (its picture): any member's to change, admins' only once the group is locked. */
  const editor = (groupId: string) => {
    const group = member(groupId);
    return group.settings.locked ? admin(groupId) : group;
  };
  const told = (group: TestGroup, change: Omit<GroupChange, 'groupId' | 'actorId' | 'timestamp'>) =>
    ctx.emit('groupChanged', {
      groupId: group.id,
      actorId: ctx.me(),
      timestamp: Math.floor(Date.now() / 1000),
      ...change,
    });
  const participants = (
    groupId: string,
    ids: string[],
    act: (group: TestGroup, id: string) => number,
    message: string,
    kind: GroupChange['kind'],
    changes?: GroupChange['changes'],
  ): ParticipantsOutcome => {
    const group = admin(groupId);
    const results = ids.map((id) => {
      const status = act(group, id);
      return { id, success: status === 200, status };
    });
    const done = results.filter((r) => r.success).map((r) => r.id);
    if (done.length > 0) told(group, { kind, participantIds: done, ...(changes ? { changes } : {}) });
    return { success: done.length > 0, message, results };
  };
  const onWhatsApp = (id: string) => id.endsWith('@lid') || ctx.directory.find(id) !== undefined;

  return {
    list: async ({ limit, offset }) => {
      live();
      return [...ctx.groups.groups.values()]
        .filter((group) => group.members.has(ctx.me()))
        .slice(offset, offset + limit)
        .map((group) => ({ id: group.id, name: group.subject, linkedParentJID: null }));
    },
    get: async ({ groupId }) => infoOf(member(groupId)),
    create: async ({ name, participants: people }) => {
      live();
      const group = ctx.groups.create(ctx.me(), name, people.filter(onWhatsApp));
      told(group, { kind: 'join', participantIds: [...group.members.keys()] });
      return {
        id: group.id,
        name,
        participantsCount: group.members.size,
        isAdmin: true,
        linkedParentJID: null,
      };
    },
    setSubject: async ({ groupId, subject }) => {
      const group = admin(groupId);
      group.subject = subject;
      told(group, { kind: 'update', participantIds: [], changes: { subject } });
      return { success: true as const, message: 'Group subject updated' };
    },
    setDescription: async ({ groupId, description }) => {
      const group = admin(groupId);
      group.description = description || null;
      told(group, { kind: 'update', participantIds: [], changes: { description: group.description } });
      return { success: true as const, message: 'Group description updated' };
    },
    picture: async ({ groupId }) => ({ url: member(groupId).picture ?? null }),
    setPicture: async ({ groupId, image }) => {
      const group = editor(groupId);
      // The picture's URL names its bytes and type, so a test can tell which picture the group has.
      const digest = createHash('sha256').update(image.bytes).digest('hex');
      group.picture = `https://pictures.example/groups/${digest}?type=${encodeURIComponent(image.mimetype)}`;
      told(group, { kind: 'update', participantIds: [], changes: { picture: 'set' } });
      return { success: true as const, message: 'Group picture updated' };
    },
    removePicture: async ({ groupId }) => {
      const group = editor(groupId);
      group.picture = null;
      told(group, { kind: 'update', participantIds: [], changes: { picture: 'removed' } });
      return { success: true as const, message: 'Group picture removed' };
    },
    settings: async ({ groupId }) => ({ ...member(groupId).settings }),
    updateSettings: async ({ groupId, ...changes }) => {
      const group = admin(groupId);
      const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      Object.assign(group.settings, given);
      told(group, { kind: 'update', participantIds: [], changes: given });
      return { ...group.settings };
    },
    inviteCode: async ({ groupId }) => {
      const { inviteCode } = admin(groupId);
      return { inviteCode, inviteLink: inviteLinkOf(inviteCode) };
    },
    revokeInvite: async ({ groupId }) => {
      const group = admin(groupId);
      group.inviteCode = `${group.inviteCode}r`;
      return {
        inviteCode: group.inviteCode,
        inviteLink: inviteLinkOf(group.inviteCode),
        message: 'Invite code revoked and new one generated',
      };
    },
    joinInfo: async ({ code }) => {
      live();
      const group = ctx.groups.byCode(code);
      if (!group) throw new NotFoundError(`Group with invite code ${code} not found`);
      const { id, subject: name, description, owner, creation: createdAt } = group;
      return { id, name, description, owner, createdAt, participantCount: group.members.size };
    },
    join: async ({ inviteCode }) => {
      live();
      const group = ctx.groups.byCode(inviteCode);
      if (!group) throw new NotFoundError(`Group with invite code ${inviteCode} not found`);
      group.members.set(ctx.me(), 'member');
      told(group, { kind: 'join', participantIds: [ctx.me()] });
      return { success: true as const, groupId: group.id };
    },
    leave: async ({ groupId }) => {
      const group = member(groupId);
      group.members.delete(ctx.me());
      told(group, { kind: 'leave', participantIds: [ctx.me()] });
      return { success: true as const, message: 'Left the group' };
    },
    addParticipants: async ({ groupId, participants: ids }) =>
      participants(
        groupId,
        ids,
        (group, id) => {
          if (!onWhatsApp(id)) return 404;
          if (group.members.has(id)) return 409;
          group.members.set(id, 'member');
          return 200;
        },
        'Participants added',
        'join',
      ),
    removeParticipants: async ({ groupId, participants: ids }) =>
      participants(
        groupId,
        ids,
        (group, id) => (group.members.delete(id) ? 200 : 406),
        'Participants removed',
        'leave',
      ),
    promoteParticipants: async ({ groupId, participants: ids }) =>
      participants(
        groupId,
        ids,
        (group, id) => setRole(group, id, 'admin'),
        'Participants promoted to admin',
        'update',
        { promoted: true },
      ),
    demoteParticipants: async ({ groupId, participants: ids }) =>
      participants(
        groupId,
        ids,
        (group, id) => setRole(group, id, 'member'),
        'Participants demoted from admin',
        'update',
        { demoted: true },
      ),
    membershipRequests: async ({ groupId }) =>
      [...member(groupId).requests].map(([participantId, requestedAt]) => ({
        participantId,
        requestedAt,
        method: 'invite_link',
      })),
    approveRequests: async ({ groupId, participants: ids }) => {
      const group = admin(groupId);
      const asked = ids ?? [...group.requests.keys()];
      const decide = (g: TestGroup, id: string) => {
        if (!g.requests.delete(id)) return 404;
        g.members.set(id, 'member');
        return 200;
      };
      return participants(groupId, asked, decide, 'Membership requests approved', 'join');
    },
    rejectRequests: async ({ groupId, participants: ids }) => {
      const group = admin(groupId);
      const asked = ids ?? [...group.requests.keys()];
      const results = asked.map((id) => {
        const status = group.requests.delete(id) ? 200 : 404;
        return { id, success: status === 200, status };
      });
      return { success: results.some((r) => r.success), message: 'Membership requests rejected', results };
    },
  };
}

/** A member's new role, as WhatsApp answers it per person: 200 done, 406 not a member. */
function setRole(group: TestGroup, id: string, role: 'admin' | 'member'): number {
  if (!group.members.has(id)) return 406;
  group.members.set(id, role);
  return 200;
}
