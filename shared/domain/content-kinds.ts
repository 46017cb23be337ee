/**
 * How each outgoing content kind maps to the stored message row (type, body, metadata) and back, and what it requires
 * beyond its schema. The row keeps its spec shape, and the metadata the same keys received messages use
 * (message-metadata.ts: `location`, `vCards`, `quotedMessage`), so a stored row reads the same whichever way it
 * went, and a received message can be forwarded from its row.
 */
import { ValidationError } from '#shared/errors/app-error.js';
import { servedMediaType } from './media.js';
import type { ArchivedFile } from './media-content.js';
import { LocationMetadata, MediaMetadata, QuotedMetadata, VCardsMetadata } from './message-metadata.js';
import {
  type ContentOf,
  type ContentType,
  type MediaContent,
  MessageRef,
  OutgoingContent,
  type QuotedRef,
  type StoredContent,
} from './outgoing-content.js';

interface ContentKind<T extends ContentType> {
  /** Refuses (400) what the schema cannot say, before anything is stored. */
  check?(content: ContentOf<T>): void;
  toStored(content: ContentOf<T>): {
    body: string | null;
    metadata: Record<string, unknown>;
    /** The stored type when it is not the kind's own (a voice note is stored as `voice`). */
    type?: string;
    file?: ArchivedFile;
  };
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

type MediaType = MediaContent['type'];

/** How a media kind is stored: the caption as body, the file described in `metadata.media`, its key on the row. */
function mediaKind<T extends MediaType>(type: T): ContentKind<T> {
  return {
    check: (content) => {
      const media = content as MediaContent;
      checkMentions('caption' in media ? (media.caption ?? '') : '', mentionsOf(media));
    },
    toStored: (content) => {
      const media = content as MediaContent;
      const { file } = media;
      const mentions = mentionsOf(media);
      return {
        type: media.type === 'audio' && media.ptt ? 'voice' : type,
        body: 'caption' in media ? (media.caption ?? null) : null,
        file,
        metadata: {
          media: {
            mimetype: file.mimetype,
            ...(file.fileName ? { filename: file.fileName } : {}),
            sizeBytes: file.size,
          },
          ...(mentions?.length ? { mentions } : {}),
          ...contextToStored(media),
        },
      };
    },
    fromStored: (row) => {
      const media = MediaMetadata.safeParse(row.metadata?.media).data;
      if (!row.mediaPath || !media) return null;
      const file = {
        path: row.mediaPath,
        mimetype: media.mimetype,
        size: media.sizeBytes ?? 0,
        ...(media.filename ? { fileName: media.filename } : {}),
      };
      return {
        type,
        file,
        ...(type === 'audio' ? { ptt: row.type === 'voice' } : {}),
        ...(row.body && type !== 'audio' && type !== 'sticker' ? { caption: row.body } : {}),
        ...(Array.isArray(row.metadata?.mentions) && type !== 'audio' && type !== 'sticker'
          ? { mentions: row.metadata.mentions }
          : {}),
        ...contextFromStored(row.metadata),
      };
    },
  };
}

function mentionsOf(content: OutgoingContent): readonly string[] | undefined {
  return 'mentions' in content ? content.mentions : undefined;
}

/** Stored types that are another kind's (a voice note is audio sent as one). */
const STORED_AS: Readonly<Record<string, ContentType>> = { voice: 'audio' };

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
  image: mediaKind('image'),
  video: mediaKind('video'),
  audio: mediaKind('audio'),
  document: mediaKind('document'),
  sticker: mediaKind('sticker'),
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
  const { body, metadata, type, file } = kindOf(content.type).toStored(content);
  return {
    type: type ?? content.type,
    body,
    metadata: Object.keys(metadata).length > 0 ? metadata : null,
    mediaPath: file?.path ?? null,
    mediaMimetype: file ? servedMediaType(file.mimetype) : null,
  };
}

/** The content a stored row carries, or null when the row holds nothing that can be sent. */
export function contentOfStored(row: StoredContent): OutgoingContent | null {
  const type = STORED_AS[row.type] ?? row.type;
  if (!Object.hasOwn(CONTENT_KINDS, type)) return null;
  const parsed = OutgoingContent.safeParse(kindOf(type as ContentType).fromStored(row));
  return parsed.success ? parsed.data : null;
}
