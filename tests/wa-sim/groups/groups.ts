/** Groups: membership, subject, description and invite code, and the `<group>` nodes clients parse. */
import { randomBytes, randomInt } from 'node:crypto';
import type { Directory } from '#tests/wa-sim/accounts/directory.js';
import { type BinaryNode, lidJid, makeNode, pnJid, unixNow } from '#tests/wa-sim/transport/binary.js';

/** A member's role; `member` is written as no `type` attribute. */
export type GroupRole = 'member' | 'admin' | 'superadmin';

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
    };
    for (const member of members) if (member !== creator) group.members.set(member, 'member');
    this.groups.set(id, group);
    return group;
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
