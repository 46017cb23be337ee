/**
 * Groups (openwa-facts §1.4, §3): what the group operations take and answer. A member appears by the id WhatsApp
 * names it with (`<number>@c.us`, or `<id>@lid` in a LID-addressed group) and, beside it, by both identities when
 * either is known.
 */
import { z } from 'zod';

/** A group id: `<digits>@g.us`, the older ones `<creator>-<time>@g.us`. */
export const GroupId = z
  .string()
  .max(128)
  .regex(/^[0-9]{5,20}(-[0-9]{5,20})?@g\.us$/, 'must be <group id>@g.us');

/** A person to add, remove, promote or demote: `<number>@c.us` or `<id>@lid`. */
export const ParticipantId = z
  .string()
  .max(64)
  .regex(/^[0-9]{5,20}@(c\.us|lid)$/, 'must be <number>@c.us or <id>@lid');

/** A list of people (1–256, each once). */
export const ParticipantList = z
  .array(ParticipantId)
  .min(1)
  .max(256)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a participant')
  .meta({ uniqueItems: true });

/** A group as the list shows it. */
export const GroupSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The community the group belongs to, when it does. */
    linkedParentJID: z.string().nullable(),
  })
  .meta({ id: 'GroupSummary' });
export type GroupSummary = z.infer<typeof GroupSummary>;

export const GroupParticipant = z.object({
  id: z.string(),
  /** Digits of the member's phone number, when known. */
  number: z.string().nullable(),
  /** The member's LID, when known. */
  lid: z.string().nullable(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
});
export type GroupParticipant = z.infer<typeof GroupParticipant>;

/** A group with its members and settings (`GET …/groups/{groupId}`). */
export const GroupInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    /** Who created it (neutral id), when known. */
    owner: z.string().nullable(),
    /** Epoch seconds. */
    createdAt: z.number().int().nullable(),
    /** Only admins change its settings (WhatsApp's `locked`). */
    isReadOnly: z.boolean(),
    /** Only admins write (WhatsApp's `announce`). */
    isAnnounce: z.boolean(),
    linkedParentJID: z.string().nullable(),
    participants: z.array(GroupParticipant),
  })
  .meta({ id: 'GroupInfo' });
export type GroupInfo = z.infer<typeof GroupInfo>;

/** What became of one person of a participants operation. */
export const ParticipantResult = z.object({
  id: z.string(),
  success: z.boolean(),
  /** WhatsApp's status code for this person (200 done; 403 refused by their privacy; 409 already in; …). */
  status: z.number().int(),
  message: z.string().optional(),
});
export type ParticipantResult = z.infer<typeof ParticipantResult>;

export const ParticipantsOutcome = z
  .object({ success: z.boolean(), message: z.string(), results: z.array(ParticipantResult) })
  .meta({ id: 'GroupParticipantsResult' });
export type ParticipantsOutcome = z.infer<typeof ParticipantsOutcome>;

/** What a change of a group answers (its subject, description, picture; leaving it). */
export const GroupOperationDone = z
  .object({ success: z.literal(true), message: z.string() })
  .meta({ id: 'GroupOperationDone' });

/** The settings of a group. */
export const GroupSettings = z
  .object({
    /** Only admins write. */
    announce: z.boolean(),
    /** Only admins change the group's settings. */
    locked: z.boolean(),
    /** Disappearing messages after this many seconds; 0 when off. */
    ephemeralSeconds: z.number().int().min(0),
    /** Who may add members. */
    memberAddMode: z.enum(['all', 'admins']),
  })
  .meta({ id: 'GroupSettings' });
export type GroupSettings = z.infer<typeof GroupSettings>;

/** WhatsApp's disappearing-message timers (off, 24 hours, 7 days, 90 days). */
export const EPHEMERAL_SECONDS = [0, 86_400, 604_800, 7_776_000] as const;

export const InviteCode = z
  .object({ inviteCode: z.string(), inviteLink: z.string() })
  .meta({ id: 'GroupInviteCode' });

/** The link form of an invite code. */
export const inviteLinkOf = (code: string) => `https://chat.whatsapp.com/${code}`;

/** What an invite code tells of its group before joining. */
export const GroupJoinInfo = GroupInfo.pick({
  id: true,
  name: true,
  description: true,
  owner: true,
  createdAt: true,
})
  .extend({ participantCount: z.number().int().nullable() })
  .meta({ id: 'GroupJoinInfo' });

/** A request to join a group that needs an admin's approval. */
export const MembershipRequest = z.object({
  participantId: z.string(),
  /** Epoch seconds. */
  requestedAt: z.number().int().nullable(),
  /** How they asked (an invite link, …), when WhatsApp tells. */
  method: z.string().nullable(),
});

/** What a `group.update` says changed (only what did). */
export const GroupChanges = z.object({
  subject: z.string().optional(),
  description: z.string().nullable().optional(),
  announce: z.boolean().optional(),
  locked: z.boolean().optional(),
  ephemeralSeconds: z.number().int().optional(),
  memberAddMode: z.enum(['all', 'admins']).optional(),
  /** The update's `participantIds` were made admins. */
  promoted: z.boolean().optional(),
  /** The update's `participantIds` were made plain members. */
  demoted: z.boolean().optional(),
  /** The group's picture was set (or replaced), or removed. */
  picture: z.enum(['set', 'removed']).optional(),
});
export type GroupChanges = z.infer<typeof GroupChanges>;
