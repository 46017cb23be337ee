/**
 * What can be sent: one discriminated union on `type` that flows from the route to the engine (text now; media,
 * location, contact, reaction… join it as rows of CONTENT_KINDS). The stored message row keeps its spec shape
 * (type, body, metadata); each kind says how its content maps to those fields and back, so the host sends exactly
 * what the request stored, and what each kind requires beyond its schema.
 */
import { z } from 'zod';
import { ValidationError } from '#shared/errors/app-error.js';

export const TEXT_MAX = 4096;
const PersonalChatId = z.string().regex(/^[0-9]{5,20}@c\.us$/, 'must be <number>@c.us');

export const TextContent = z.strictObject({
  type: z.literal('text'),
  text: z.string().min(1).max(TEXT_MAX),
  /** People mentioned; the text must contain `@<number>` for each, as WhatsApp renders them. */
  mentions: z.array(PersonalChatId).max(1024).optional(),
});

export const OutgoingContent = z.discriminatedUnion('type', [TextContent]);
export type OutgoingContent = z.infer<typeof OutgoingContent>;
export type ContentType = OutgoingContent['type'];
export type ContentOf<T extends ContentType> = Extract<OutgoingContent, { type: T }>;

/** The fields of a stored message row (shared/domain/message.ts) that hold its content. */
export interface StoredContent {
  type: string;
  body: string | null;
  metadata: Record<string, unknown> | null;
  mediaPath: string | null;
  mediaMimetype: string | null;
}

interface ContentKind<T extends ContentType> {
  /** Refuses (400) what the schema cannot say, before anything is stored. */
  check(content: ContentOf<T>): void;
  toStored(content: ContentOf<T>): StoredContent;
  /** The content a stored row of this type carries (validated by the caller). */
  fromStored(row: StoredContent): unknown;
}

const CONTENT_KINDS: { [T in ContentType]: ContentKind<T> } = {
  text: {
    check: ({ text, mentions }) => {
      for (const mention of mentions ?? []) {
        const number = mention.split('@')[0] ?? '';
        if (!text.includes(`@${number}`)) {
          throw new ValidationError(`text must contain @${number} for the mention ${mention}`);
        }
      }
    },
    toStored: ({ text, mentions }) => ({
      type: 'text',
      body: text,
      metadata: mentions?.length ? { mentions } : null,
      mediaPath: null,
      mediaMimetype: null,
    }),
    fromStored: (row) => ({
      type: 'text',
      text: row.body,
      ...(Array.isArray(row.metadata?.mentions) ? { mentions: row.metadata.mentions } : {}),
    }),
  },
};

function kindOf<T extends ContentType>(type: T): ContentKind<T> {
  return CONTENT_KINDS[type] as unknown as ContentKind<T>;
}

/** Refuses content that its schema accepts but its kind does not (e.g. a mention missing from the text). */
export function checkContent(content: OutgoingContent): void {
  kindOf(content.type).check(content);
}

/** The row fields that store `content`. */
export function storedContent(content: OutgoingContent): StoredContent {
  return kindOf(content.type).toStored(content);
}

/** The content a stored outgoing row carries, or null when the row holds nothing that can be sent. */
export function contentOfStored(row: StoredContent): OutgoingContent | null {
  if (!(row.type in CONTENT_KINDS)) return null;
  const parsed = OutgoingContent.safeParse(kindOf(row.type as ContentType).fromStored(row));
  return parsed.success ? parsed.data : null;
}
