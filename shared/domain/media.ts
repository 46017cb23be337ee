/**
 * Archived media: which media types the gateway names and serves as themselves (the allow-map, with the file
 * extension each is stored under), and the shape of a storage key. Keys are made here from ids the gateway holds,
 * never from anything a client sends, and every adapter refuses a key that does not have this exact shape, so no key
 * can name a file or object outside the archive.
 */

/**
 * The media types WhatsApp carries that are served with their own Content-Type, each with its extension. Nothing
 * here is active content a browser would run (HTML, SVG, XML, JavaScript): those, and every type not listed, are
 * stored as `.bin` and served as application/octet-stream.
 */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'audio/wav': 'wav',
  'audio/webm': 'weba',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/zip': 'zip',
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

/** What every type outside the allow-map is stored and served as. */
export const OPAQUE_MEDIA_TYPE = 'application/octet-stream';
const OPAQUE_EXTENSION = 'bin';

const BY_EXTENSION: ReadonlyMap<string, string> = new Map(
  Object.entries(MEDIA_TYPES).map(([type, extension]) => [extension, type]),
);

/**
 * The allow-listed media type `mimetype` names (case and parameters such as `; codecs=opus` dropped), or
 * application/octet-stream for anything else, missing or malformed.
 */
export function servedMediaType(mimetype: string | null | undefined): string {
  const base = (mimetype ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return Object.hasOwn(MEDIA_TYPES, base) ? base : OPAQUE_MEDIA_TYPE;
}

/** The extension a file of this media type is stored under (`bin` outside the allow-map). */
export function mediaExtension(mimetype: string | null | undefined): string {
  return MEDIA_TYPES[servedMediaType(mimetype)] ?? OPAQUE_EXTENSION;
}

/** The media type a stored key's extension stands for. */
export function mediaTypeOfExtension(extension: string): string {
  return BY_EXTENSION.get(extension) ?? OPAQUE_MEDIA_TYPE;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** A session id (a uuid, lower case as the gateway makes them). */
const SESSION_ID = new RegExp(`^${UUID}$`);
/** A message id as stored: the row's uuid or a network id (letters, digits, `_` and `-`; no dots, no slashes). */
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** `<session id>/<message id>.<extension>`: the only shape a key may have. */
const KEY = new RegExp(`^(${UUID})/([A-Za-z0-9_-]{1,128})\\.([a-z0-9]{1,8})$`);

/** A storage key taken apart. */
export interface MediaKeyParts {
  sessionId: string;
  /** `<message id>.<extension>`: the file's name within its session's folder (or prefix). */
  fileName: string;
  extension: string;
}

/** Whether `sessionId` can name a session's folder of the archive. */
export function isMediaSessionId(sessionId: string): boolean {
  return SESSION_ID.test(sessionId);
}

/**
 * The key a message's media is stored under: `<session id>/<message id>.<extension>`; null when either id cannot be
 * part of a key (the caller refuses it).
 */
export function mediaKey(sessionId: string, messageId: string, mimetype: string): string | null {
  if (!SESSION_ID.test(sessionId) || !MESSAGE_ID.test(messageId)) return null;
  return `${sessionId}/${messageId}.${mediaExtension(mimetype)}`;
}

/** The parts of a well-formed key; null for anything else (`..`, absolute paths, other separators, …). */
export function parseMediaKey(key: string): MediaKeyParts | null {
  const match = KEY.exec(key);
  if (!match) return null;
  const [, sessionId = '', messageId = '', extension = ''] = match;
  return { sessionId, fileName: `${messageId}.${extension}`, extension };
}

/** The API path that serves a stored message's archived file (`GET …/messages/{chatId}/{messageId}/media`). */
export function mediaRoutePath(message: { sessionId: string; chatId: string; id: string }): string {
  const sessionId = encodeURIComponent(message.sessionId);
  return `/api/sessions/${sessionId}/messages/${encodeURIComponent(message.chatId)}/${message.id}/media`;
}
