/** Request bodies of the admin API (zod), so bad input answers 400 with a readable message, and route shapes. */
import { z } from 'zod';
import { GROUP_ADD_SETTINGS, PICTURE_SETTINGS } from '#tests/wa-sim/accounts/contacts.js';
import { ENFORCEMENT_TYPES } from '#tests/wa-sim/accounts/restriction.js';
import { MEMBER_ADD_MODES } from '#tests/wa-sim/groups/groups.js';
import { ContactContent, MessageText } from '#tests/wa-sim/messaging/contact-content.js';
import { STATUS_POSTS } from '#tests/wa-sim/messaging/contact-status.js';
import { ADDRESSING_MODES } from '#tests/wa-sim/messaging/lid-addressing.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { badRequest } from '#tests/wa-sim/support/errors.js';

/** What a route answers: a JSON body, or raw bytes of `contentType`, and its status (200 unless set). */
export interface Reply {
  readonly status?: number;
  readonly body: unknown;
  /** Set for a raw answer: `body` is then a Buffer sent as is. */
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One route: method, path pattern (capture groups become params) and handler. */
export interface Route {
  readonly method: 'GET' | 'POST';
  readonly pattern: RegExp;
  readonly handle: (sim: Simulator, params: readonly string[], body: unknown) => Promise<Reply> | Reply;
}

/** Parses `body` with `schema`, throwing a 400 that names every problem. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
  throw badRequest(problems.join('; '));
}

/** The path parameter `name` parsed with `schema`, throwing a 400 that names it. */
export function parseParam<T extends z.ZodType>(
  schema: T,
  name: string,
  raw: string | undefined,
): z.infer<T> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw badRequest(`${name}: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
}

/** A phone number: digits only, as WhatsApp users are addressed. */
export const PhoneNumber = z.string().regex(/^\d{5,15}$/, 'a phone number is 5 to 15 digits, no + or spaces');

/** A group jid. */
export const GroupJid = z.string().regex(/^\d+(-\d+)?@g\.us$/, 'a group jid looks like 1203630…@g.us');

/** `POST /admin/mock-phone/scan-qr` */
export const ScanQrBody = z.object({
  qr: z.string().min(1),
  phone: PhoneNumber.optional(),
  pushName: z.string().min(1).max(100).optional(),
});

/** `POST /admin/mock-phone/pair-code` */
export const PairCodeBody = z.object({
  phone: PhoneNumber,
  code: z
    .string()
    .transform((value) => value.replace(/-/g, '').toUpperCase())
    .pipe(z.string().length(8, 'a pairing code has 8 characters')),
  pushName: z.string().min(1).max(100).optional(),
});

/** `POST /admin/contacts` */
export const CreateContactBody = z.object({
  number: PhoneNumber,
  name: z.string().min(1).max(100).optional(),
  /** In the phones' address books (default); `false` makes a stranger, known only from what it sends. */
  saved: z.boolean().optional(),
});

/**
 * `POST /admin/contacts/{number}/messages`: to a linked account's number or to a group, a `text` or a `content`
 * of any kind (location, contact card, reply, reaction, edit, revoke); parsed to the content either way.
 */
export const ContactMessageBody = z
  .object({
    to: z.union([PhoneNumber, GroupJid]),
    text: MessageText.optional(),
    content: ContactContent.optional(),
  })
  .transform(({ to, text, content }, ctx) => {
    if (content && text === undefined) return { to, content };
    if (text !== undefined && !content) return { to, content: { type: 'text' as const, text } };
    const message = content ? 'give text or content, not both' : 'give text or content';
    ctx.addIssue({ code: 'custom', path: ['text'], message });
    return z.NEVER;
  });

/** `POST /admin/contacts/{number}/call`: a voice (default) or video call to a linked account. */
export const ContactCallBody = z.object({
  to: PhoneNumber,
  video: z.boolean().optional(),
});

/** `POST /admin/contacts/{number}/calls/{callId}/end`: the caller hangs up, nobody answers, or the phone answers. */
export const CallEndBody = z.object({ how: z.enum(['hangup', 'timeout', 'answered']) });

/** `POST /admin/contacts/{number}/receipts` */
export const ContactReceiptsBody = z.object({
  to: PhoneNumber,
  ids: z.array(z.string().min(1)).min(1),
  type: z.enum(['delivery', 'read', 'played']),
});

/** `POST /admin/contacts/{number}/config` */
export const ContactConfigBody = z.object({
  name: z.string().min(1).max(100).optional(),
  autoDeliver: z.boolean().optional(),
  autoRead: z.boolean().optional(),
  online: z.boolean().optional(),
  receiptDelayMs: z.number().int().min(0).max(60_000).optional(),
  addressing: z.enum(ADDRESSING_MODES).optional(),
  picture: z.enum(PICTURE_SETTINGS).optional(),
  // WhatsApp's limit for an about text.
  about: z.string().max(139).optional(),
  groupAdd: z.enum(GROUP_ADD_SETTINGS).optional(),
});

/** `POST /admin/contacts/{number}/chatstate` */
export const ContactChatstateBody = z.object({
  to: PhoneNumber,
  state: z.enum(['composing', 'recording', 'paused']),
});

/** The linked accounts a contact's status goes to, by phone number. */
const StatusViewers = { to: z.array(PhoneNumber).min(1).max(256) };

/** `POST /admin/contacts/{number}/status`: a text, image, video or voice status to linked accounts. */
export const ContactStatusBody = z.discriminatedUnion('type', [
  STATUS_POSTS.text.extend(StatusViewers),
  STATUS_POSTS.image.extend(StatusViewers),
  STATUS_POSTS.video.extend(StatusViewers),
  STATUS_POSTS.voice.extend(StatusViewers),
]);

/** `POST /admin/contacts/{number}/status/{id}/revoke`: the linked accounts told that the status is deleted. */
export const StatusRevokeBody = z.object(StatusViewers);

/** `POST /admin/connections` */
export const ConnectionsBody = z.object({
  mode: z.enum(['accept', 'refuse', 'delay']),
  delayMs: z.number().int().min(0).max(120_000).optional(),
});

/** `POST /admin/accounts/{phone}/restriction`; the duration and type only matter when restricting. */
export const RestrictionBody = z.object({
  restricted: z.boolean(),
  expiresInSeconds: z
    .number()
    .int()
    .min(1)
    .max(366 * 24 * 3600)
    .optional(),
  enforcementType: z.enum(ENFORCEMENT_TYPES).optional(),
});

/** `POST /admin/accounts/{phone}/logout-hold` */
export const LogoutHoldBody = z.object({ hold: z.boolean() });

/** `POST /admin/accounts/{phone}/pre-keys` */
export const PreKeysBody = z.object({ keep: z.number().int().min(0) });

/** `POST /admin/accounts/{phone}/blocklist`: the phone blocks or unblocks a user (a contact or another account). */
export const BlocklistBody = z.object({
  number: PhoneNumber,
  action: z.enum(['block', 'unblock']),
});

/** A chat's jid in the path of the chat routes: a user's by number or by LID, or a group's. */
export const ChatJid = z
  .string()
  .regex(
    /^(\d{5,15}@s\.whatsapp\.net|\d+@lid|\d+(-\d+)?@g\.us)$/,
    'a chat jid is <number>@s.whatsapp.net, <lid>@lid or <id>@g.us',
  );

/** A label id: WhatsApp numbers labels. */
export const LabelId = z.string().regex(/^\d{1,20}$/, 'a label id is digits');

/** Label ids a chat change puts on the chat or takes off it. */
const LabelIds = z.array(LabelId).min(1).max(20);

/**
 * `POST /admin/accounts/{phone}/chats/{jid}`: what the phone does to the chat. `muteUntil` is the end of a mute in
 * epoch milliseconds, -1 for ever, null to unmute; `labels` puts labels on the chat or takes them off. Unknown fields
 * are refused, so a typo does not pass for a no-op.
 */
export const ChatChangeBody = z
  .strictObject({
    read: z.boolean().optional(),
    archived: z.boolean().optional(),
    pinned: z.boolean().optional(),
    muteUntil: z
      .union([z.literal(-1), z.number().int().positive()])
      .nullable()
      .optional(),
    cleared: z.literal(true).optional(),
    deleted: z.literal(true).optional(),
    labels: z
      .strictObject({ add: LabelIds.optional(), remove: LabelIds.optional() })
      .refine((labels) => labels.add !== undefined || labels.remove !== undefined, {
        message: 'give add, remove or both',
      })
      .optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: 'give at least one of read, archived, pinned, muteUntil, cleared, deleted, labels',
  });

/**
 * `POST /admin/accounts/{phone}/labels/{labelId}`: the phone creates, changes or deletes the label (`color` is
 * WhatsApp's colour id, 0–19). Unknown fields are refused.
 */
export const LabelEditBody = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    color: z.number().int().min(0).max(19).optional(),
    deleted: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'give at least one of name, color, deleted' });

/** The users a member action names: phone numbers of contacts or accounts. */
const GroupNumbers = z.array(PhoneNumber).min(1).max(256);

/** The disappearing-message timers WhatsApp offers (off, 24 hours, 7 days, 90 days), in seconds. */
const EphemeralSeconds = z.union([z.literal(0), z.literal(86_400), z.literal(604_800), z.literal(7_776_000)]);

/**
 * `POST /admin/groups/{jid}/actions`: what member `by` (a contact or a linked account) does to the group, under the
 * same rules as a companion's iq. A `description` of `""` deletes it; `acceptInvite` takes up the private invitation
 * an add refused by privacy issued.
 */
export const GroupActionBody = z.discriminatedUnion('action', [
  z.object({ by: PhoneNumber, action: z.literal('subject'), subject: z.string().min(1).max(100) }),
  z.object({ by: PhoneNumber, action: z.literal('description'), description: z.string().max(2048) }),
  z.object({
    by: PhoneNumber,
    action: z.enum(['add', 'remove', 'promote', 'demote', 'approve', 'reject']),
    numbers: GroupNumbers,
  }),
  z.object({ by: PhoneNumber, action: z.enum(['announce', 'locked', 'joinApproval']), on: z.boolean() }),
  z.object({ by: PhoneNumber, action: z.literal('ephemeral'), expiration: EphemeralSeconds }),
  z.object({ by: PhoneNumber, action: z.literal('memberAddMode'), mode: z.enum(MEMBER_ADD_MODES) }),
  z.object({
    by: PhoneNumber,
    action: z.enum(['leave', 'revokeInvite', 'acceptInvite', 'picture', 'removePicture']),
  }),
]);
export type GroupAction = z.infer<typeof GroupActionBody>;

/** `POST /admin/groups/{jid}/requests`: a user asks to join through the invite link, or takes its request back. */
export const GroupRequestBody = z.object({
  number: PhoneNumber,
  action: z.enum(['request', 'cancel']).optional(),
});
