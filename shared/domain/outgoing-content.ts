/**
 * What can be sent: one discriminated union on `type` that flows from the use case to the engine. Every kind the
 * send routes offer is a row here: texts (a reply is a text that quotes), locations, contact cards, reactions,
 * edits and revokes (media join it the same way). Content is complete as it flows: the messages it points at are
 * resolved to their network keys (`MessageRef`) before it is stored, so the host sends exactly what the request
 * stored without reading anything else. How each kind maps to the stored row is in content-kinds.ts.
 */
import { z } from 'zod';
import { MediaContentShapes } from './media-content.js';

export const TEXT_MAX = 4096;
export const EMOJI_MAX = 32;
const PersonalChatId = z.string().regex(/^[0-9]{5,20}@c\.us$/, 'must be <number>@c.us');
const Mentions = z.array(PersonalChatId).max(1024);

/** A message of a chat by its network key: what a reaction, edit, revoke or reply points at. */
export const MessageRef = z.object({
  /** Its network id. */
  id: z.string().min(1),
  /** This account sent it. */
  fromMe: z.boolean(),
  /** Who sent it, in a group chat, when it was not this account (neutral form). */
  participant: z.string().optional(),
});
export type MessageRef = z.infer<typeof MessageRef>;

/** The message a reply quotes, with the text WhatsApp shows in the quote. */
export const QuotedRef = MessageRef.extend({ body: z.string().nullable() });
export type QuotedRef = z.infer<typeof QuotedRef>;

/** What a message shown in the chat may carry besides its content: a quote, or the forwarded mark. */
const Context = {
  quoted: QuotedRef.optional(),
  /** Sent as a forward of another message (WhatsApp shows "Forwarded"). */
  forwarded: z.literal(true).optional(),
};

export const TextContent = z.strictObject({
  type: z.literal('text'),
  text: z.string().min(1).max(TEXT_MAX),
  /** People mentioned; the text must contain `@<number>` for each, as WhatsApp renders them. */
  mentions: Mentions.optional(),
  ...Context,
});

export const LocationContent = z.strictObject({
  type: z.literal('location'),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  /** The place's name. */
  description: z.string().min(1).max(1024).optional(),
  address: z.string().min(1).max(1024).optional(),
  ...Context,
});

/** A contact card: the name shown and one vCard per contact shared. */
export const ContactContent = z.strictObject({
  type: z.literal('contact'),
  displayName: z.string().min(1).max(255),
  vcards: z.array(z.string().min(1).max(65_536)).min(1).max(32),
  ...Context,
});

const Mentionable = { mentions: Mentions.optional(), ...Context };
export const ImageContent = z.strictObject({ ...MediaContentShapes.image, ...Mentionable });
export const VideoContent = z.strictObject({ ...MediaContentShapes.video, ...Mentionable });
export const AudioContent = z.strictObject({ ...MediaContentShapes.audio, ...Context });
export const DocumentContent = z.strictObject({ ...MediaContentShapes.document, ...Mentionable });
export const StickerContent = z.strictObject({ ...MediaContentShapes.sticker, ...Context });

/** A reaction to a message; '' takes this account's reaction back. */
export const ReactionContent = z.strictObject({
  type: z.literal('reaction'),
  target: MessageRef,
  emoji: z.string().max(EMOJI_MAX),
});

/** A new text for a text message this account sent. */
export const EditContent = z.strictObject({
  type: z.literal('edit'),
  target: MessageRef,
  text: z.string().min(1).max(TEXT_MAX),
  mentions: Mentions.optional(),
});

/** Deletes a message this account sent for everyone. */
export const RevokeContent = z.strictObject({ type: z.literal('revoke'), target: MessageRef });

export const OutgoingContent = z.discriminatedUnion('type', [
  TextContent,
  LocationContent,
  ContactContent,
  ImageContent,
  VideoContent,
  AudioContent,
  DocumentContent,
  StickerContent,
  ReactionContent,
  EditContent,
  RevokeContent,
]);
export type OutgoingContent = z.infer<typeof OutgoingContent>;
export type ContentType = OutgoingContent['type'];
export type ContentOf<T extends ContentType> = Extract<OutgoingContent, { type: T }>;

/** The kinds that change another message instead of being shown in the chat on their own. */
export const CHANGE_TYPES = ['reaction', 'edit', 'revoke'] as const satisfies readonly ContentType[];
export type ChangeContent = ContentOf<(typeof CHANGE_TYPES)[number]>;

export function isChangeContent(content: OutgoingContent): content is ChangeContent {
  return (CHANGE_TYPES as readonly string[]).includes(content.type);
}

/** The kinds whose file is in the media archive. */
export type MediaContent = ContentOf<'image' | 'video' | 'audio' | 'document' | 'sticker'>;

export function isMediaContent(content: OutgoingContent): content is MediaContent {
  return 'file' in content;
}

/** The fields of a stored message row (shared/domain/message.ts) that hold its content. */
export interface StoredContent {
  type: string;
  body: string | null;
  metadata: Record<string, unknown> | null;
  mediaPath: string | null;
  mediaMimetype: string | null;
}
