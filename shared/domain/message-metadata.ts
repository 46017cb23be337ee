/**
 * What a stored message's `metadata` holds beside its sender's push name, by kind: a location's coordinates, a
 * contact card's vCards, the message a reply quotes. Engines write it, `messageEventData` reads it back into the
 * event fields of openwa-facts §3 (IncomingMessage `location`, `quotedMessage`) and `vCards`.
 */
import { z } from 'zod';

/** A shared location; `description` is the place's name. */
export const LocationMetadata = z.object({
  latitude: z.number(),
  longitude: z.number(),
  description: z.string().optional(),
  address: z.string().optional(),
  url: z.string().optional(),
});
export type LocationMetadata = z.infer<typeof LocationMetadata>;

/**
 * The message a reply quotes: its network id, its text when it had one, and its sender in neutral form; `fromMe`
 * when this account sent it (always known for what the gateway sends, not always for what it receives).
 */
export const QuotedMetadata = z.object({
  id: z.string(),
  body: z.string().nullable(),
  participant: z.string().optional(),
  fromMe: z.boolean().optional(),
});
export type QuotedMetadata = z.infer<typeof QuotedMetadata>;

/** The vCards of a contact card (one per contact shared). */
export const VCardsMetadata = z.array(z.string());

/**
 * A message's file as the row describes it (the bytes are in the media archive under the row's `mediaPath`):
 * its type, name and size; `omitted` when the file was not archived (`too_large` for MEDIA_DOWNLOAD_MAX_BYTES,
 * `download_failed` when the network would not give it).
 */
export const MediaMetadata = z.object({
  mimetype: z.string(),
  filename: z.string().optional(),
  sizeBytes: z.number().int().nonnegative().optional(),
  /** Duration of audio and video, in seconds. */
  seconds: z.number().int().nonnegative().optional(),
  omitted: z.enum(['too_large', 'download_failed']).optional(),
});
export type MediaMetadata = z.infer<typeof MediaMetadata>;

/** The kind-specific part of a received message's metadata. */
export const ReceivedMetadata = z.object({
  media: MediaMetadata.optional(),
  location: LocationMetadata.optional(),
  vCards: VCardsMetadata.optional(),
  quotedMessage: QuotedMetadata.optional(),
});
export type ReceivedMetadata = z.infer<typeof ReceivedMetadata>;
