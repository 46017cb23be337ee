/**
 * Status updates (WhatsApp "stories", openwa-facts §1.7): what contacts post to the account's status broadcast, kept
 * for the 24 hours WhatsApp shows them, and what the account posts itself to chosen recipients. The store holds
 * both: a contact's (`fromMe` false) as it arrived, with its file in the media archive; the account's own (`fromMe`
 * true) with the recipients it went to, which deleting it for everyone has to name again.
 */
import { z } from 'zod';
import { MediaMetadata } from './message-metadata.js';
import { EventPersonIds, type PersonIds } from './person-ids.js';

/** How long WhatsApp shows a status after it was posted (the spec's limits: fixed). */
export const STATUS_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const StatusType = z.enum(['text', 'image', 'video', 'voice']);
export type StatusType = z.infer<typeof StatusType>;

/** The colour behind a text or voice status, `#RRGGBB`. */
export const StatusColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour #RRGGBB');
/** The typefaces WhatsApp offers for a text status. */
export const StatusFont = z.literal([0, 1, 2, 6, 7, 8, 9, 10]);

/** A stored status update. */
export interface StatusRecord {
  sessionId: string;
  /** The network message id (unique per session). */
  statusId: string;
  /** Who posted it (neutral id); the account's own number for its own posts. */
  contactId: string;
  pushName: string | null;
  fromMe: boolean;
  type: StatusType;
  /** A text status's text. */
  text: string | null;
  /** A picture's or video's caption. */
  caption: string | null;
  backgroundColor: string | null;
  font: number | null;
  /** The file's description, with `omitted` when it was not archived. */
  media: MediaMetadata | null;
  /** Where the media archive keeps the file. */
  mediaPath: string | null;
  /** Who the account's own post went to (empty for a contact's). */
  recipients: string[];
  /** Epoch ms. */
  postedAt: number;
  /** Epoch ms: postedAt + STATUS_LIFETIME_MS. */
  expiresAt: number;
}

/** A status as the API answers it (`GET …/status`). */
export const StatusView = z
  .object({
    id: z.string(),
    contact: z.object({ id: z.string(), pushName: z.string().optional(), person: EventPersonIds }),
    fromMe: z.boolean(),
    type: StatusType,
    text: z.string().optional(),
    caption: z.string().optional(),
    /** The API path that serves its file, when one is archived. */
    mediaUrl: z.string().optional(),
    media: MediaMetadata.optional(),
    backgroundColor: z.string().optional(),
    font: z.number().int().optional(),
    timestamp: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'StatusUpdate' });
export type StatusView = z.infer<typeof StatusView>;

/** The API path of a status's file. */
export function statusMediaPath(sessionId: string, statusId: string): string {
  return `/api/sessions/${sessionId}/status/${encodeURIComponent(statusId)}/media`;
}

/** The answer to a list or a contact's statuses. */
export const StatusList = z.object({ statuses: z.array(StatusView) }).meta({ id: 'StatusList' });

/** The view of a stored status; `person` is the poster by both ids. */
export function statusViewOf(status: StatusRecord, person: PersonIds | null): StatusView {
  const file = status.mediaPath !== null;
  return {
    id: status.statusId,
    contact: {
      id: status.contactId,
      ...(status.pushName ? { pushName: status.pushName } : {}),
      person,
    },
    fromMe: status.fromMe,
    type: status.type,
    ...(status.text !== null ? { text: status.text } : {}),
    ...(status.caption !== null ? { caption: status.caption } : {}),
    ...(file ? { mediaUrl: statusMediaPath(status.sessionId, status.statusId) } : {}),
    ...(status.media ? { media: status.media } : {}),
    ...(status.backgroundColor !== null ? { backgroundColor: status.backgroundColor } : {}),
    ...(status.font !== null ? { font: status.font } : {}),
    timestamp: new Date(status.postedAt).toISOString(),
    expiresAt: new Date(status.expiresAt).toISOString(),
  };
}

/** The `status.received` event's data (openwa-facts §4.4; times in epoch ms). */
export const StatusReceivedData = z.object({
  sessionId: z.string(),
  statusId: z.string(),
  contact: z.object({ id: z.string(), pushName: z.string().optional(), person: EventPersonIds }),
  type: StatusType,
  text: z.string().optional(),
  caption: z.string().optional(),
  hasMedia: z.boolean(),
  mediaOmitted: z.boolean(),
  omitReason: z.enum(['too_large', 'download_failed']).optional(),
  /** The API path that serves its file, when one is archived. */
  mediaUrl: z.string().optional(),
  postedAt: z.number().int(),
  expiresAt: z.number().int(),
});
export type StatusReceivedData = z.infer<typeof StatusReceivedData>;

/** The event data of a contact's stored status. */
export function statusReceivedData(status: StatusRecord, person: PersonIds | null): StatusReceivedData {
  const view = statusViewOf(status, person);
  const omitted = status.media?.omitted;
  return {
    sessionId: status.sessionId,
    statusId: status.statusId,
    contact: view.contact,
    type: status.type,
    ...(view.text !== undefined ? { text: view.text } : {}),
    ...(view.caption !== undefined ? { caption: view.caption } : {}),
    hasMedia: status.media !== null,
    mediaOmitted: omitted !== undefined,
    ...(omitted ? { omitReason: omitted } : {}),
    ...(view.mediaUrl ? { mediaUrl: view.mediaUrl } : {}),
    postedAt: status.postedAt,
    expiresAt: status.expiresAt,
  };
}
