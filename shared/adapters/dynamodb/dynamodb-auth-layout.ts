/**
 * Item layout of the DynamoDB auth-state store (pure functions, no I/O): sort keys, the split of large values into
 * part items, and the item writes that store or delete one entry. The items live in the data table under
 * pk `AUTH#<sessionId>` (see dynamodb-tables.ts for the families).
 *
 * Attribute names are one letter because every read transfers them: `v` the value (or its first part), `n` the
 * number of parts when there is more than one, `r` a revision shared by the head and the parts of one write, so a
 * reader can tell parts of two different writes apart.
 */
import { createHash } from 'node:crypto';
import type { AuthKeyChange } from '#shared/ports/auth-state-store.port.js';
import type { Item } from './dynamodb-support.js';

/** Sort key of the credentials document. */
export const CREDENTIALS_SK = 'CREDS';
/** Sort-key prefix of committed journals (see dynamodb-auth-journal.ts). */
export const JOURNAL_PREFIX = 'JOURNAL#';
/** Sort-key prefix of the parts beyond the first of every multipart value or journal. */
export const PART_PREFIX = 'PART#';

/**
 * Bytes of value per item: DynamoDB caps an item at 400 KB (409,600 bytes, names and keys included), so a part
 * leaves room for the key attributes (sort keys are at most 1 KB) and the bookkeeping attributes.
 */
export const MAX_PART_BYTES = 350_000;
/** TransactWriteItems takes at most 100 items of at most 4 MB in all; the byte budget leaves some margin. */
export const TRANSACTION_MAX_ITEMS = 100;
export const TRANSACTION_MAX_BYTES = 4_000_000;

/** DynamoDB limits a sort key to 1,024 bytes; a key head leaves room for the part prefix and suffix around it. */
const MAX_HEAD_SK_BYTES = 1_024 - PART_PREFIX.length - 12;
/** Key, type and bookkeeping attributes counted per item on top of its value and sort key. */
const ITEM_OVERHEAD_BYTES = 200;

/** The partition of a session. */
export const authPk = (sessionId: string): string => `AUTH#${sessionId}`;

/**
 * Sort key of a key: `KEY#<category length>:<category>#<id length>:<id>`, lengths in UTF-16 units. The lengths
 * make the encoding self-delimiting, so no (category, id) pair can collide with another whatever characters they
 * contain, and no head is a prefix of another head followed by a part suffix. Names too long for DynamoDB's sort
 * key are replaced by their SHA-256 (`KEYH#<hex>`), which needs no lookup back: reads compute the same digest.
 */
export function keySk(category: string, id: string): string {
  const named = `${category.length}:${category}#${id.length}:${id}`;
  const sk = `KEY#${named}`;
  if (Buffer.byteLength(sk) <= MAX_HEAD_SK_BYTES) return sk;
  return `KEYH#${createHash('sha256').update(named).digest('hex')}`;
}

/**
 * The category and id a key's sort key names (keySk read backwards), or null for a head that is no key (the
 * credentials, a journal) and for a hashed name (`KEYH#`), which cannot be read back.
 */
export function parseKeySk(sk: string): { category: string; id: string } | null {
  const match = /^KEY#(\d+):/.exec(sk);
  if (match === null) return null;
  const categoryStart = match[0].length;
  const categoryEnd = categoryStart + Number(match[1]);
  const idMatch = /^#(\d+):/.exec(sk.slice(categoryEnd));
  if (idMatch === null) return null;
  const idStart = categoryEnd + idMatch[0].length;
  if (sk.length !== idStart + Number(idMatch[1])) return null;
  return { category: sk.slice(categoryStart, categoryEnd), id: sk.slice(idStart) };
}

/** Sort key of part `index` (1-based; the head holds part 0) of the value or journal at `head`. */
export const partSk = (head: string, index: number): string => `${PART_PREFIX}${head}#${index}`;

/** The head and index a part sort key names, or null for any other sort key. */
export function parsePartSk(sk: string): { head: string; index: number } | null {
  if (!sk.startsWith(PART_PREFIX)) return null;
  const hash = sk.lastIndexOf('#');
  const index = Number(sk.slice(hash + 1));
  if (hash <= PART_PREFIX.length || !Number.isInteger(index) || index < 1) return null;
  return { head: sk.slice(PART_PREFIX.length, hash), index };
}

/** One change to the entry stored at a head sort key; null deletes it. */
export type Entry = readonly [sk: string, value: string | null];

/**
 * A key batch as entries: one per key, carrying the last change made to it, since changes apply in order and a
 * transaction may not name one item twice.
 */
export function keyEntries(changes: readonly AuthKeyChange[]): Entry[] {
  const last = new Map<string, string | null>();
  for (const { category, id, value } of changes) last.set(keySk(category, id), value);
  return [...last];
}

/** Merges entry lists in order, the last change of a head winning. */
export function mergeEntries(lists: readonly (readonly Entry[])[]): Entry[] {
  const last = new Map<string, string | null>();
  for (const list of lists) for (const [sk, value] of list) last.set(sk, value);
  return [...last];
}

/** UTF-8 size of one UTF-16 unit at `i` of `text` (4 for a surrogate pair, which then spans two units). */
function utf8Width(text: string, i: number): { bytes: number; units: number } {
  const code = text.charCodeAt(i);
  if (code < 0x80) return { bytes: 1, units: 1 };
  if (code < 0x800) return { bytes: 2, units: 1 };
  const next = text.charCodeAt(i + 1);
  if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return { bytes: 4, units: 2 };
  return { bytes: 3, units: 1 };
}

/**
 * Splits text into parts of at most `maxBytes` UTF-8 bytes, never inside a surrogate pair, so every part is valid
 * text on its own and the parts joined give the text back exactly.
 */
export function splitValue(text: string, maxBytes: number = MAX_PART_BYTES): string[] {
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return [text];
  const parts: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const width = utf8Width(text, i);
    if (bytes + width.bytes > maxBytes) {
      parts.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += width.bytes;
    i += width.units;
  }
  parts.push(text.slice(start));
  return parts;
}

/** One item write; `bytes` estimates the item's size toward the transaction limit. */
export type ItemWrite = { put: Item; bytes: number } | { delete: { pk: string; sk: string }; bytes: number };

const itemBytes = (pk: string, sk: string, value = ''): number =>
  Buffer.byteLength(pk) + Buffer.byteLength(sk) + Buffer.byteLength(value) + ITEM_OVERHEAD_BYTES;

/** The item writes of one entry and the number of parts beyond the head it leaves stored. */
export interface EntryPlan {
  writes: ItemWrite[];
  extraParts: number;
}

/**
 * The writes that store (or delete) one entry whose head currently has `storedExtraParts` parts beyond it: the
 * parts first and the head last, and deletes of every stored part the new value no longer uses, so a rewrite
 * with fewer parts leaves none behind. `rev` marks the parts of this write.
 */
export function planEntry(pk: string, entry: Entry, storedExtraParts: number, rev: string): EntryPlan {
  const [sk, value] = entry;
  const chunks = value === null ? [] : splitValue(value);
  const writes: ItemWrite[] = [];
  for (let i = 1; i < chunks.length; i++) {
    const part = partSk(sk, i);
    writes.push({ put: { pk, sk: part, v: chunks[i], r: rev }, bytes: itemBytes(pk, part, chunks[i]) });
  }
  for (let i = Math.max(1, chunks.length); i <= storedExtraParts; i++) {
    const part = partSk(sk, i);
    writes.push({ delete: { pk, sk: part }, bytes: itemBytes(pk, part) });
  }
  const first = chunks[0];
  if (first === undefined) {
    writes.push({ delete: { pk, sk }, bytes: itemBytes(pk, sk) });
  } else {
    const head: Item =
      chunks.length > 1 ? { pk, sk, v: first, n: chunks.length, r: rev } : { pk, sk, v: first };
    writes.push({ put: head, bytes: itemBytes(pk, sk, first) });
  }
  return { writes, extraParts: Math.max(0, chunks.length - 1) };
}

/** True when the writes fit one TransactWriteItems. */
export function fitsOneTransaction(writes: readonly ItemWrite[]): boolean {
  return (
    writes.length <= TRANSACTION_MAX_ITEMS &&
    writes.reduce((sum, write) => sum + write.bytes, 0) <= TRANSACTION_MAX_BYTES
  );
}

/**
 * Packs the writes of several entries into transactions, keeping an entry's writes together whenever they fit
 * one transaction (a value bigger than a transaction spills over, parts before its head).
 */
export function packTransactions(groups: readonly (readonly ItemWrite[])[]): ItemWrite[][] {
  const packed: ItemWrite[][] = [];
  let current: ItemWrite[] = [];
  let bytes = 0;
  const full = (write: ItemWrite) =>
    current.length + 1 > TRANSACTION_MAX_ITEMS || bytes + write.bytes > TRANSACTION_MAX_BYTES;
  for (const group of groups) {
    if (current.length > 0 && !fitsOneTransaction([...current, ...group])) {
      packed.push(current);
      current = [];
      bytes = 0;
    }
    for (const write of group) {
      if (current.length > 0 && full(write)) {
        packed.push(current);
        current = [];
        bytes = 0;
      }
      current.push(write);
      bytes += write.bytes;
    }
  }
  if (current.length > 0) packed.push(current);
  return packed;
}
