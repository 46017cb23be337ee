/**
 * How each outgoing content kind maps to the stored message row (type, body, metadata) and back, and what it requires
 * beyond its schema. The row keeps its spec shape, and the metadata the same keys received messages use
 * (message-metadata.ts: `location`, `vCards`, `quotedMessage`), so a stored row reads the same whichever way it
 * went, and a received message can be forwarded from its row.
 */
import { ValidationError } from '#shared/errors/app-error.js';
import { LocationMetadata, QuotedMetadata, VCardsMetadata } from './message-metadata.js';
import {
  type ContentOf,
  type ContentType,
  MessageRef,
  OutgoingContent,
  type QuotedRef,
  type StoredContent,
} from './outgoing-content.js';

interface ContentKind<T extends ContentType> {
  /** Refuses (400) what the schema cannot say, before anything is stored. */
  check?(content: ContentOf<T>): void;
  toStored(content: ContentOf<T>): { body: string | null; metadata: Record<string, unknown> };
  /** The content a stored row of this type carries (validated by the caller). */
  fromStored(row: StoredContent): unknown;
}

/** Each mention needs its `@<number>` in the text, as WhatsApp renders it. */
function checkMentions(text: string, mentions: readonly string[] | undefined): void {
  for (const mention of mentions ?? []) {
    const number = mention.split('@')[0] ?? '';
    if (!text.includes(`@${number}`)) {
      throw new ValidationError(`text must contain @${number} for the mention ${mention}`);
    }
  }
}

/** The stored form of a quote and the forwarded mark. */
function contextToStored(content: { quoted?: QuotedRef; forwarded?: true }): Record<string, unknown> {
  const { quoted, forwarded } = content;
  return {
    ...(quoted ? { quotedMessage: { ...quoted } } : {}),
    ...(forwarded ? { forwarded: true } : {}),
  };
}

/** The quote and forwarded mark a row carries; a received quote without `fromMe` cannot be sent again. */
function contextFromStored(metadata: StoredContent['metadata']): { quoted?: QuotedRef; forwarded?: true } {
  const quoted = QuotedMetadata.safeParse(metadata?.quotedMessage).data;
  return {
    ...(quoted && typeof quoted.fromMe === 'boolean' ? { quoted: { ...quoted, fromMe: quoted.fromMe } } : {}),
    ...(metadata?.forwarded === true ? { forwarded: true } : {}),
  };
}

const targetOf = (row: StoredContent) => MessageRef.safeParse(row.metadata?.target).data;

const CONTENT_KINDS: { [T in ContentType]: ContentKind<T> } = {
  text: {
    check: ({ text, mentions }) => checkMentions(text, mentions),
    toStored: (content) => ({
      body: content.text,
      metadata: {
        ...(content.mentions?.length ? { mentions: content.mentions } : {}),
        ...contextToStored(content),
      },
    }),
    fromStored: (row) => ({
      type: 'text',
      text: row.body,
      ...(Array.isArray(row.metadata?.mentions) ? { mentions: row.metadata.mentions } : {}),
      ...contextFromStored(row.metadata),
    }),
  },
  location: {
    toStored: ({ latitude, longitude, description, address, ...context }) => ({
      body: description ?? null,
      metadata: {
        location: {
          latitude,
          longitude,
          ...(description ? { description } : {}),
          ...(address ? { address } : {}),
        },
        ...contextToStored(context),
      },
    }),
    fromStored: (row) => {
      const location = LocationMetadata.safeParse(row.metadata?.location).data;
      return (
        location && {
          type: 'location',
          latitude: location.latitude,
          longitude: location.longitude,
          ...(location.description ? { description: location.description } : {}),
          ...(location.address ? { address: location.address } : {}),
          ...contextFromStored(row.metadata),
        }
      );
    },
  },
  contact: {
    toStored: ({ displayName, vcards, ...context }) => ({
      body: displayName,
      metadata: { vCards: vcards, ...contextToStored(context) },
    }),
    fromStored: (row) => ({
      type: 'contact',
      displayName: row.body,
      vcards: VCardsMetadata.safeParse(row.metadata?.vCards).data,
      ...contextFromStored(row.metadata),
    }),
  },
  reaction: {
    toStored: ({ target, emoji }) => ({ body: emoji || null, metadata: { target } }),
    fromStored: (row) => ({ type: 'reaction', target: targetOf(row), emoji: row.body ?? '' }),
  },
  edit: {
    check: ({ text, mentions }) => checkMentions(text, mentions),
    toStored: ({ target, text, mentions }) => ({
      body: text,
      metadata: { target, ...(mentions?.length ? { mentions } : {}) },
    }),
    fromStored: (row) => ({
      type: 'edit',
      target: targetOf(row),
      text: row.body,
      ...(Array.isArray(row.metadata?.mentions) ? { mentions: row.metadata.mentions } : {}),
    }),
  },
  revoke: {
    toStored: ({ target }) => ({ body: null, metadata: { target } }),
    fromStored: (row) => ({ type: 'revoke', target: targetOf(row) }),
  },
};

function kindOf<T extends ContentType>(type: T): ContentKind<T> {
  return CONTENT_KINDS[type] as unknown as ContentKind<T>;
}

/** Refuses content that its schema accepts but its kind does not (e.g. a mention missing from the text). */
export function checkContent(content: OutgoingContent): void {
  kindOf(content.type).check?.(content);
}

/** The row fields that store `content`. */
export function storedContent(content: OutgoingContent): StoredContent {
  const { body, metadata } = kindOf(content.type).toStored(content);
  return {
    type: content.type,
    body,
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
    mediaPath: null,
    mediaMimetype: null,
  };
}

/** The content a stored row carries, or null when the row holds nothing that can be sent. */
export function contentOfStored(row: StoredContent): OutgoingContent | null {
  if (!Object.hasOwn(CONTENT_KINDS, row.type)) return null;
  const parsed = OutgoingContent.safeParse(kindOf(row.type as ContentType).fromStored(row));
  return parsed.success ? parsed.data : null;
}
