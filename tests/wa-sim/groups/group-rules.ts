/**
 * Who may change what in a group, as WhatsApp enforces it: members and settings are the admins' (adding is
 * everyone's under `all_member_add`); subject, description and the disappearing-messages timer are every
 * member's unless the group is locked. A refusal carries both the iq error the server answers and the admin API's
 * HTTP status, so the w:g2 iq and the admin's member actions refuse alike.
 */
import { SimError } from '#tests/wa-sim/support/errors.js';
import { type BinaryNode, iqError } from '#tests/wa-sim/transport/binary.js';
import { type Group, isAdmin } from './groups.js';

/**
 * The iq error for a member who is not an admin. WhatsApp answers `401 not-authorized` here (whatsmeow documents
 * it for the invite link, and clients see it for adds), keeping `403 forbidden` for users who are not members.
 */
export const NOT_ADMIN_IQ = { code: 401, text: 'not-authorized' } as const;

/** A group change the server refuses: `iqCode`/`iqText` go on the wire, `status` to the admin API. */
export class GroupRefusal extends SimError {
  constructor(
    status: 400 | 403 | 404 | 409,
    readonly iqCode: number,
    readonly iqText: string,
    message: string,
  ) {
    super(status, message);
    this.name = 'GroupRefusal';
  }
}

/** Refuses anyone who is not a member of `group` (403 forbidden). */
export function requireMember(group: Group, actor: string): void {
  if (!group.members.has(actor)) {
    throw new GroupRefusal(403, 403, 'forbidden', `${actor} is not a member of ${group.jid}`);
  }
}

/** Refuses a member who is not an admin (`NOT_ADMIN_IQ`), and anyone who is not a member. */
export function requireAdmin(group: Group, actor: string): void {
  requireMember(group, actor);
  if (!isAdmin(group, actor)) {
    throw new GroupRefusal(
      403,
      NOT_ADMIN_IQ.code,
      NOT_ADMIN_IQ.text,
      `${actor} is not an admin of ${group.jid}`,
    );
  }
}

/** Subject, description and the disappearing timer: any member, admins only once the group is locked. */
export function requireInfoEditor(group: Group, actor: string): void {
  if (group.restrict) requireAdmin(group, actor);
  else requireMember(group, actor);
}

/** Adding members: admins, or any member when the group's add mode is `all_member_add`. */
export function requireAdder(group: Group, actor: string): void {
  if (group.memberAddMode === 'all_member_add') requireMember(group, actor);
  else requireAdmin(group, actor);
}

/** Input the server cannot act on (400 bad-request). */
export function badGroupRequest(message: string): GroupRefusal {
  return new GroupRefusal(400, 400, 'bad-request', message);
}

/** The answer `answer` makes to a group iq, or the iq error of the GroupRefusal it throws. */
export function answerGroupIq(iq: BinaryNode, answer: () => BinaryNode): BinaryNode {
  try {
    return answer();
  } catch (error) {
    if (error instanceof GroupRefusal) return iqError(iq, error.iqCode, error.iqText);
    throw error;
  }
}
