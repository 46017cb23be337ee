/**
 * The bodies of the send routes (spec "Messages"; field names of openwa-facts §2 where the spec does not show them)
 * and the request content each becomes (`SendDraft`). A draft names the messages it points at by id; the send use
 * case resolves them to network keys and turns the draft into outgoing content (outgoing-content.ts).
 */
import { z } from 'zod';
import { HTTP_URL_START, whenAlso, whenMissing } from './common.js';
import { CAPTION_MAX, type MediaKind } from './media-content.js';
import { ChatId } from './message.js';
import { EMOJI_MAX, LocationContent, TEXT_MAX, TextContent } from './outgoing-content.js';

/** A stored message named in a request: its network id (`waMessageId`) or its stored id. */
export const MessageIdField = z.string().min(1).max(128);

const QuotedMessageId = MessageIdField.describe(
  'Quote (reply to) this message of the chat: its network id or stored id.',
);

const TextFields = TextContent.pick({ text: true, mentions: true }).shape;

export const SendTextBody = z.strictObject({
  chatId: ChatId,
  ...TextFields,
  quotedMessageId: QuotedMessageId.optional(),
});

export const ReplyBody = z.strictObject({ chatId: ChatId, quotedMessageId: QuotedMessageId, ...TextFields });

export const SendLocationBody = z.strictObject({
  chatId: ChatId,
  ...LocationContent.pick({ latitude: true, longitude: true, description: true, address: true }).shape,
  quotedMessageId: QuotedMessageId.optional(),
});

export const SendContactBody = z.strictObject({
  chatId: ChatId,
  contactName: z.string().trim().min(1).max(255),
  /** The shared contact's phone number: digits, optionally with a leading + and spaces or dashes. */
  contactNumber: z
    .string()
    .max(30)
    .regex(/^\+?[0-9][0-9 -]{3,28}[0-9]$/, 'must be a phone number: digits, optional leading +'),
  quotedMessageId: QuotedMessageId.optional(),
});

export const ForwardBody = z.strictObject({
  fromChatId: ChatId,
  toChatId: ChatId,
  messageId: MessageIdField,
});

export const ReactBody = z.strictObject({
  chatId: ChatId,
  messageId: MessageIdField,
  /** '' takes this account's reaction back. */
  emoji: z.string().max(EMOJI_MAX),
});

export const EditBody = z.strictObject({
  chatId: ChatId,
  messageId: MessageIdField,
  body: z.string().min(1).max(TEXT_MAX),
  mentions: TextContent.shape.mentions,
});

export const DeleteBody = z.strictObject({
  chatId: ChatId,
  messageId: MessageIdField,
  /** Only deleting for everyone is offered: a delete "for me" changes nothing on the network. */
  forEveryone: z.literal(true).optional(),
});

/** Where a media send's file comes from: a URL the service fetches, or the bytes in base64 with their type. */
export type MediaSource = { url: string } | { data: string };

/** A media send before its file is fetched and archived. */
export interface MediaDraft {
  type: MediaKind;
  source: MediaSource;
  /** Required with `data`; with `url`, the type the URL answers with unless given. */
  mimetype?: string | undefined;
  caption?: string | undefined;
  fileName?: string | undefined;
  ptt?: boolean | undefined;
  mentions?: string[] | undefined;
  quotedMessageId?: string | undefined;
}

/** Required beside `data`; with `url`, the type the URL answers with unless given. */
export const MimeType = z
  .string({ error: whenMissing('data needs its mimetype') })
  .max(255)
  .regex(
    /^[a-z]+\/[a-z0-9.+-]+(\s*;\s*[a-z0-9-]+=[a-z0-9.+-]+)*$/i,
    'must be a media type such as image/jpeg',
  );
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  BASE64_CHAR[c.charCodeAt(0)] = 1;

/** What isBase64Text accepts, as the OpenAPI document states it (a test holds the two to the same answers). */
export const BASE64_PATTERN = '^[A-Za-z0-9+/]+={0,2}$';

/**
 * Base64 characters, then at most two `=`: what BASE64_PATTERN accepts, by a table lookup per character (that regex
 * took about 1.2 ms on a 100 KB file's 137,000 characters; this takes a quarter of it).
 */
export function isBase64Text(text: string): boolean {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  if (end === 0 || text.length - end > 2) return false;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code > 127 || BASE64_CHAR[code] !== 1) return false;
  }
  return true;
}

/** Base64 of the file (no `data:` prefix): its size is capped by MEDIA_DOWNLOAD_MAX_BYTES. */
export const Base64Data = z
  .string()
  .min(4)
  .refine(isBase64Text, 'must be base64 (no data: prefix)')
  .meta({ pattern: BASE64_PATTERN });

export const EXACTLY_ONE_SOURCE = 'give exactly one of url and data';

/**
 * A media file's URL, fetched by the service: http(s) only, through the SSRF guard, never following redirects. A
 * body without it (and without `data`) is told to give one of the two.
 */
export const MediaUrl = z
  .url({ protocol: /^https?$/, error: whenMissing(EXACTLY_ONE_SOURCE) })
  .max(2048)
  .regex(HTTP_URL_START, 'must be an absolute http or https URL')
  .meta({ format: 'uri' });

/**
 * Where a media file comes from: a URL the service fetches, or the bytes in base64 with their type; never both. Each
 * is a closed shape, so a body fits one or neither (the OpenAPI document's `oneOf`).
 */
const MEDIA_SOURCES = {
  url: { url: MediaUrl, mimetype: MimeType.optional() },
  data: { data: Base64Data, mimetype: MimeType },
} as const;

/** A media body: `fields` with the file by `url` or by `data` (exactly one; `data` with its `mimetype`). */
export function withMediaSource<F extends z.core.$ZodLooseShape>(fields: F) {
  return z.xor([
    z.strictObject({ ...fields, ...MEDIA_SOURCES.url }, { error: whenAlso('data', EXACTLY_ONE_SOURCE) }),
    z.strictObject({ ...fields, ...MEDIA_SOURCES.data }, { error: whenAlso('url', EXACTLY_ONE_SOURCE) }),
  ]);
}

const MediaFields = { chatId: ChatId, quotedMessageId: QuotedMessageId.optional() };

const Caption = z.string().min(1).max(CAPTION_MAX).optional();
/** What each media kind's body has besides its chat, its file and a quote. */
const MEDIA_KIND_FIELDS = {
  image: { caption: Caption, mentions: TextContent.shape.mentions },
  video: { caption: Caption, mentions: TextContent.shape.mentions },
  document: {
    caption: Caption,
    filename: z.string().min(1).max(255).optional(),
    mentions: TextContent.shape.mentions,
  },
  audio: { ptt: z.boolean().optional() },
  sticker: {},
} as const;

export const SendImageBody = withMediaSource({ ...MediaFields, ...MEDIA_KIND_FIELDS.image });
export const SendVideoBody = SendImageBody;
export const SendDocumentBody = withMediaSource({ ...MediaFields, ...MEDIA_KIND_FIELDS.document });
export const SendAudioBody = withMediaSource({ ...MediaFields, ...MEDIA_KIND_FIELDS.audio });
export const SendStickerBody = withMediaSource(MediaFields);

/** Each media kind's file and its own fields, without chat or quote: what a batch item of that kind carries. */
export const MEDIA_ITEM_CONTENT = {
  image: withMediaSource(MEDIA_KIND_FIELDS.image),
  video: withMediaSource(MEDIA_KIND_FIELDS.video),
  audio: withMediaSource(MEDIA_KIND_FIELDS.audio),
  document: withMediaSource(MEDIA_KIND_FIELDS.document),
};

/** A media body of any kind, by either source (each shape of withMediaSource fits it). */
type MediaBody = Omit<MediaDraft, 'type' | 'source' | 'fileName'> & {
  chatId: string;
  url?: string | undefined;
  data?: string | undefined;
  filename?: string | undefined;
};

/** The draft of a media body: the source, and the fields the kind has. */
export function mediaDraft(type: MediaKind, body: MediaBody): { chatId: string; content: MediaDraft } {
  const { chatId, url, data, filename, ...rest } = body;
  const source: MediaSource = url !== undefined ? { url } : { data: data ?? '' };
  return { chatId, content: { type, source, ...rest, ...(filename ? { fileName: filename } : {}) } };
}

/** What a send request asks to send, before the messages it names are resolved. */
export type SendDraft =
  | MediaDraft
  | { type: 'text'; text: string; mentions?: string[] | undefined; quotedMessageId?: string | undefined }
  | {
      type: 'location';
      latitude: number;
      longitude: number;
      description?: string | undefined;
      address?: string | undefined;
      quotedMessageId?: string | undefined;
    }
  | { type: 'contact'; displayName: string; vcards: string[]; quotedMessageId?: string | undefined }
  | { type: 'forward'; fromChatId: string; messageId: string }
  | { type: 'reaction'; messageId: string; emoji: string }
  | { type: 'edit'; messageId: string; text: string; mentions?: string[] | undefined }
  | { type: 'revoke'; messageId: string };

/** The vCard WhatsApp clients send for a shared contact (`waid` lets the app offer "message"/"add"). */
export function contactVCard(name: string, number: string): string {
  const digits = number.replace(/[^0-9]/g, '');
  const escaped = name
    .replace(/\\/g, '\\\\')
    .replace(/[,;]/g, (c) => `\\${c}`)
    .replace(/\r?\n/g, '\\n');
  return [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `FN:${escaped}`,
    `TEL;type=CELL;type=VOICE;waid=${digits}:+${digits}`,
    'END:VCARD',
  ].join('\n');
}
