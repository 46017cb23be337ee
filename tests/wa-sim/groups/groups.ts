/**
 * Groups: membership, subject, description, settings, invite code and join requests, and the `<group>` nodes
 * clients parse. Who may change what is `group-rules.ts`'s business; the changes are `group-changes.ts`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Directory } from '#tests/wa-sim/accounts/directory.js';
import { type BinaryNode, lidJid, makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';

/** A member's role; `member` is written as no `type` attribute. */
export type GroupRole = 'member' | 'admin' | 'superadmin';

/** Who may add members: admins only (WhatsApp's `admin_add`), or every member. */
export const MEMBER_ADD_MODES = ['admin_add', 'all_member_add'] as const;
export type MemberAddMode = (typeof MEMBER_ADD_MODES)[number];

/** How a join request came in, as WhatsApp names it (`request_method`). */
export type JoinRequestMethod = 'invite_link' | 'non_admin_add' | 'linked_group_join';

/** A user asking to join a group that needs admin approval. */
export interface JoinRequest {
  readonly phone: string;
  /** Unix seconds. */
  readonly time: number;
  readonly method: JoinRequestMethod;
}

/**
 * The private invitation an add refused by the invitee's privacy settings answers with (`<add_request>`): the
 * adder's client sends it on as a group invite message, and the invitee joins by accepting it.
 */
export interface AddRequest {
  readonly code: string;
  /** Unix seconds. */
  readonly expiration: number;
  /** Who tried to add them. */
  readonly inviter: string;
}

/** How long a private invitation stays valid: WhatsApp's three days. */
const ADD_REQUEST_SECONDS = 3 * 24 * 3600;

/** The picture a group has. */
export interface GroupPicture {
  /** WhatsApp's picture id: digits, new with every set. */
  readonly id: string;
  readonly bytes: Buffer;
  readonly mimetype: string;
  /** Who set it (a phone number). */
  readonly author: string;
  /** Unix seconds. */
  readonly time: number;
}

/** One group. Members are phone numbers of accounts or contacts. */
export interface Group {
  readonly id: string;
  readonly jid: string;
  readonly creator: string;
  readonly creation: number;
  subject: string;
  subjectOwner: string;
  subjectTime: number;
  description: { id: string; text: string; owner: string; time: number } | undefined;
  readonly members: Map<string, GroupRole>;
  inviteCode: string;
  announce: boolean;
  restrict: boolean;
  ephemeral: number;
  memberAddMode: MemberAddMode;
  /** New members need an admin's approval (`membership_approval_mode`). */
  joinApproval: boolean;
  /** Pending join requests, by phone, oldest first. */
  readonly requests: Map<string, JoinRequest>;
  /** Private invitations issued for adds the invitee's privacy refused, by invitee phone. */
  readonly addRequests: Map<string, AddRequest>;
  /** Its picture; none until a member sets one (`group-picture.ts`). */
  picture: GroupPicture | undefined;
}

function newInviteCode(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

/** The registry of groups, by group id (the user part of `id@g.us`). */
export class GroupRegistry {
  private readonly groups = new Map<string, Group>();

  /** Every group. */
  all(): Group[] {
    return [...this.groups.values()];
  }

  /** The group behind `id@g.us` or `id`. */
  get(jidOrId: string | undefined): Group | undefined {
    return jidOrId ? this.groups.get(jidOrId.replace(/@g\.us$/, '')) : undefined;
  }

  /** The group whose current invite code is `code`. */
  byInviteCode(code: string): Group | undefined {
    return this.all().find((group) => group.inviteCode === code);
  }

  /** Creates a group with `creator` as super-admin and the given members. */
  create(creator: string, subject: string, members: readonly string[]): Group {
    const id = `120363${String(randomInt(0, 1e12)).padStart(12, '0')}`;
    const now = unixNow();
    const group: Group = {
      id,
      jid: `${id}@g.us`,
      creator,
      creation: now,
      subject,
      subjectOwner: creator,
      subjectTime: now,
      description: undefined,
      members: new Map([[creator, 'superadmin']]),
      inviteCode: newInviteCode(),
      announce: false,
      restrict: false,
      ephemeral: 0,
      memberAddMode: 'admin_add',
      joinApproval: false,
      requests: new Map(),
      addRequests: new Map(),
      picture: undefined,
    };
    for (const member of members) if (member !== creator) group.members.set(member, 'member');
    this.groups.set(id, group);
    return group;
  }

  /** Issues (or renews) the private invitation for `phone`, whose privacy refused `inviter`'s add. */
  issueAddRequest(group: Group, phone: string, inviter: string): AddRequest {
    const request = { code: newInviteCode(), expiration: unixNow() + ADD_REQUEST_SECONDS, inviter };
    group.addRequests.set(phone, request);
    return request;
  }

  /** Replaces the invite code (revocation). */
  revokeInvite(group: Group): string {
    group.inviteCode = newInviteCode();
    return group.inviteCode;
  }
}

/** A `<participant>` node in phone-number addressing, with the member's LID alongside. */
export function participantNode(directory: Directory, phone: string, role?: GroupRole): BinaryNode {
  const lidUser = directory.accounts.get(phone)?.lid ?? directory.contacts.get(phone)?.lid;
  return makeNode('participant', {
    jid: pnJid(phone),
    lid: lidUser ? lidJid(lidUser) : undefined,
    type: role && role !== 'member' ? role : undefined,
  });
}

/** The `<group>` node of a metadata answer. */
export function groupNode(directory: Directory, group: Group): BinaryNode {
  const content: BinaryNode[] = [...group.members].map(([phone, role]) =>
    participantNode(directory, phone, role),
  );
  if (group.description) {
    const { id, text, owner, time } = group.description;
    content.push(
      makeNode('description', { id, t: String(time), participant: pnJid(owner) }, [
        makeNode('body', {}, Buffer.from(text, 'utf8')),
      ]),
    );
  }
  if (group.announce) content.push(makeNode('announcement'));
  if (group.restrict) content.push(makeNode('locked'));
  if (group.ephemeral) content.push(makeNode('ephemeral', { expiration: String(group.ephemeral) }));
  // Baileys reads the mode from this child's text, and approval being on from the child being there at all.
  content.push(makeNode('member_add_mode', {}, group.memberAddMode));
  if (group.joinApproval) content.push(approvalModeNode(true));
  return makeNode(
    'group',
    {
      id: group.id,
      subject: group.subject,
      s_t: String(group.subjectTime),
      s_o: pnJid(group.subjectOwner),
      creation: String(group.creation),
      creator: pnJid(group.creator),
      size: String(group.members.size),
    },
    content,
  );
}

/** `<membership_approval_mode><group_join state>`: in a group node (on only) and in its change notification. */
export function approvalModeNode(on: boolean): BinaryNode {
  return makeNode('membership_approval_mode', {}, [makeNode('group_join', { state: on ? 'on' : 'off' })]);
}

/** Whether `phone` is an admin (or the super-admin) of `group`. */
export function isAdmin(group: Group, phone: string): boolean {
  const role = group.members.get(phone);
  return role === 'admin' || role === 'superadmin';
}
