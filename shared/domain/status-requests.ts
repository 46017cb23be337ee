/**
 * Posting status updates (openwa-facts §1.7): the request bodies of `POST …/status/send-*`, and the post as the host
 * carries it to the engine, its file already in the media archive (as media sends do: the host reads it back).
 * WhatsApp delivers a status to the recipients named with it; Baileys keeps no status audience of its own, so
 * they are required (1–256 people).
 */
import { z } from 'zod';
import { ArchivedFile, CAPTION_MAX } from './media-content.js';
import { PersonId } from './person-ids.js';
import { withMediaSource } from './send-requests.js';
import { StatusColor, StatusFont } from './status-update.js';

export const STATUS_RECIPIENTS_MAX = 256;
export const STATUS_TEXT_MAX = 4096;

const Recipients = z
  .array(PersonId)
  .min(1, 'name at least one recipient')
  .max(STATUS_RECIPIENTS_MAX)
  .describe('Who sees the status: <number>@c.us or <id>@lid.');
const Caption = z.string().min(1).max(CAPTION_MAX).optional();

export const PostTextStatusBody = z.strictObject({
  text: z.string().trim().min(1, 'must not be blank').max(STATUS_TEXT_MAX),
  recipients: Recipients,
  backgroundColor: StatusColor.optional(),
  font: StatusFont.optional(),
});
export const PostImageStatusBody = withMediaSource({ recipients: Recipients, caption: Caption });
export const PostVideoStatusBody = PostImageStatusBody;
export const PostVoiceStatusBody = withMediaSource({
  recipients: Recipients,
  backgroundColor: StatusColor.optional(),
});

/** What the host hands the engine: the content, its archived file for media, and the recipients. */
export const StatusPost = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    text: z.string().min(1).max(STATUS_TEXT_MAX),
    backgroundColor: StatusColor.optional(),
    font: StatusFont.optional(),
  }),
  z.object({ type: z.literal('image'), file: ArchivedFile, caption: Caption }),
  z.object({ type: z.literal('video'), file: ArchivedFile, caption: Caption }),
  z.object({ type: z.literal('voice'), file: ArchivedFile, backgroundColor: StatusColor.optional() }),
]);
export type StatusPost = z.infer<typeof StatusPost>;

/** A posted status: its network id and times (ISO). */
export const StatusPosted = z
  .object({ statusId: z.string(), timestamp: z.iso.datetime(), expiresAt: z.iso.datetime() })
  .meta({ id: 'StatusPosted' });
export type StatusPosted = z.infer<typeof StatusPosted>;

export const StatusDeleted = z.object({ message: z.string() }).meta({ id: 'StatusDeleted' });
