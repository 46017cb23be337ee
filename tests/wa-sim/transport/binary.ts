/**
 * Wire helpers around Baileys' own binary-node codec and protos, so the simulator speaks exactly what the client
 * parses: node building and reading, big-endian integers, padded `proto.Message` bytes and jid forms.
 */
import {
  type BinaryNode,
  binaryNodeToString,
  decodeBinaryNode,
  encodeBinaryNode,
  encodeWAMessage,
  jidDecode,
  proto,
  unpadRandomMax16,
} from '@whiskeysockets/baileys';

export type { BinaryNode };

/** The phone-number jid domain. */
export const S_WA = 's.whatsapp.net';
/** The server's own address, as clients compare it (`S_WHATSAPP_NET`: empty user, so it encodes as a jid pair). */
export const SERVER_JID = '@s.whatsapp.net';

/** Encodes a node for a transport frame (leading flag byte included). */
export function encodeNode(node: BinaryNode): Buffer {
  return encodeBinaryNode(node);
}

/** Decodes a transport frame's plaintext into a node (inflating it when flagged). */
export function decodeNode(frame: Buffer): Promise<BinaryNode> {
  return decodeBinaryNode(frame);
}

/** XML-ish rendering of a node for debug traces. */
export function nodeToString(node: BinaryNode): string {
  return binaryNodeToString(node);
}

/** Child nodes, optionally only those with `tag`. */
export function children(node: BinaryNode | undefined, tag?: string): BinaryNode[] {
  if (!node || !Array.isArray(node.content)) return [];
  return tag === undefined ? node.content : node.content.filter((item) => item.tag === tag);
}

/** The first child with `tag`. */
export function child(node: BinaryNode | undefined, tag: string): BinaryNode | undefined {
  return children(node, tag)[0];
}

/** The first child, whatever its tag (iq payloads carry one). */
export function firstChild(node: BinaryNode | undefined): BinaryNode | undefined {
  return children(node)[0];
}

/** A node's byte content (strings are UTF-8 encoded, since the codec turns short digit strings into text). */
export function bytesOf(node: BinaryNode | undefined): Buffer | undefined {
  const content = node?.content;
  if (content instanceof Uint8Array) return Buffer.from(content);
  if (typeof content === 'string') return Buffer.from(content, 'utf8');
  return undefined;
}

/** A node's content as text. */
export function textOf(node: BinaryNode | undefined): string | undefined {
  return bytesOf(node)?.toString('utf8');
}

/** The byte content of the first child with `tag`. */
export function childBytes(node: BinaryNode | undefined, tag: string): Buffer | undefined {
  return bytesOf(child(node, tag));
}

/** A node with only defined attributes (the codec would drop undefined ones, but the types do not allow them). */
export function makeNode(
  tag: string,
  attrs: Record<string, string | undefined> = {},
  content?: BinaryNode[] | Uint8Array | string,
): BinaryNode {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined) clean[key] = value;
  return content === undefined ? { tag, attrs: clean } : { tag, attrs: clean, content };
}

/** `<iq type=result>` answering `iq`. */
export function iqResult(iq: BinaryNode, content?: BinaryNode[]): BinaryNode {
  return makeNode('iq', { from: iq.attrs.to ?? SERVER_JID, type: 'result', id: iq.attrs.id }, content);
}

/** `<iq type=error>` answering `iq`; Baileys throws a Boom carrying `code`. */
export function iqError(iq: BinaryNode, code: number, text: string): BinaryNode {
  return makeNode('iq', { from: iq.attrs.to ?? SERVER_JID, type: 'error', id: iq.attrs.id }, [
    makeNode('error', { code: String(code), text }),
  ]);
}

/** Big-endian unsigned integer of `length` bytes. */
export function uintBE(value: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  out.writeUIntBE(value, 0, length);
  return out;
}

/** Reads a big-endian unsigned integer (up to 6 bytes). */
export function readUintBE(bytes: Uint8Array | undefined): number | undefined {
  if (!bytes || bytes.length === 0 || bytes.length > 6) return undefined;
  return Buffer.from(bytes).readUIntBE(0, bytes.length);
}

/** Seconds since the epoch, as WhatsApp timestamps are. */
export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** A `proto.Message`, encoded and padded like Baileys' `encodeWAMessage`. */
export function encodeMessage(message: proto.IMessage): Buffer {
  return encodeWAMessage(message);
}

/** Decodes a padded `proto.Message` plaintext. */
export function decodeMessage(padded: Uint8Array): proto.Message {
  return proto.Message.decode(unpadRandomMax16(padded));
}

/** A decoded jid: user, device and whether it is a LID. */
export interface ParsedJid {
  readonly user: string;
  readonly device: number;
  readonly server: string;
  readonly isLid: boolean;
}

/** Parses a user or device jid; undefined for malformed ones. */
export function parseJid(jid: string | undefined): ParsedJid | undefined {
  const decoded = jidDecode(jid);
  if (!decoded?.user) return undefined;
  return {
    user: decoded.user,
    device: decoded.device ?? 0,
    server: decoded.server,
    isLid: decoded.server === 'lid',
  };
}

/** A phone-number jid, with a device part when non-zero. */
export function pnJid(user: string, device = 0): string {
  return device ? `${user}:${device}@${S_WA}` : `${user}@${S_WA}`;
}

/** A LID jid, with a device part when non-zero. */
export function lidJid(user: string, device = 0): string {
  return device ? `${user}:${device}@lid` : `${user}@lid`;
}

/** The text of a message, from a plain or extended text or a media caption. */
export function messageText(message: proto.IMessage | null | undefined): string | undefined {
  if (!message) return undefined;
  return (
    message.conversation ??
    message.extendedTextMessage?.text ??
    message.imageMessage?.caption ??
    message.videoMessage?.caption ??
    message.documentMessage?.caption ??
    undefined
  );
}

/** A short kind for a message: `text`, or the proto field name without `Message` (`image`, `reaction`…). */
export function messageKind(message: proto.IMessage | null | undefined): string {
  if (!message) return 'unknown';
  if (message.conversation || message.extendedTextMessage) return 'text';
  const field = Object.keys(message).find((key) => key.endsWith('Message') && key !== 'messageContextInfo');
  return field ? field.replace(/Message$/, '') : 'unknown';
}
