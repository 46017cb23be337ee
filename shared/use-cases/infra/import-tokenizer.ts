/**
 * The import's incremental reader of an export document: text goes in piece by piece (cut anywhere, any valid JSON
 * layout), items come out one at a time: each top-level field of the envelope, then each row of `tables: { name:
 * [row, …] }` as (table, index, row). Memory holds the value being read (one row), never the document: the
 * structure above the rows is three fixed levels (the root object, `tables`, a table's array), so no stack grows.
 * A row is cut out of the text by tracking strings and brackets and parsed whole with JSON.parse, which checks its
 * syntax. Anything that is not JSON, and a document that ends early, is a 400 INVALID_JSON naming where.
 */
import { ValidationError } from '#shared/errors/app-error.js';

/** One thing the document holds, in document order. */
export type DocumentItem =
  /** A top-level field other than an object `tables` (the envelope, `stopSessions`). */
  | { kind: 'field'; key: string; value: unknown }
  /** A table's array opens (its rows follow, if it has any). */
  | { kind: 'array'; table: string }
  /** One row of a table's array. */
  | { kind: 'row'; table: string; index: number; value: unknown }
  /** The envelope's `tables` object opens (its tables follow). */
  | { kind: 'tables' }
  /** A table whose value is no array (the envelope's check refuses it). */
  | { kind: 'table'; table: string; value: unknown }
  /** A document that is no object at all. */
  | { kind: 'root'; value: unknown };

/** The longest single value (a row) read, in characters: far above any real row, it bounds a hostile one. */
export const MAX_VALUE_CHARS = 64 * 1024 * 1024;
/** The deepest nesting inside a value, as the buffered body parser allows (parse-request.ts). */
const MAX_VALUE_DEPTH = 62;

const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** What ends a number, `true`, `false` or `null` (left for the structure to read). */
const endsScalar = (c: number) => isSpace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY;

/** The structural container the reader is in: none yet (or done), the root object, `tables`, a table's array. */
type Level = 'none' | 'root' | 'tables' | 'array';
/** The level a container opened at a level leads to, and the level its closing leads back to. */
const INNER: Record<Level, Level> = { none: 'root', root: 'tables', tables: 'array', array: 'array' };
const OUTER: Record<Level, Level> = { none: 'none', root: 'none', tables: 'root', array: 'tables' };
/** What a value read whole at a level is. */
const TARGET_AT: Record<Level, Target> = { none: 'root', root: 'field', tables: 'table', array: 'row' };
/** What comes next at that level. */
type Expect = 'value' | 'key' | 'colon' | 'next' | 'end';
/** What a value being read is. */
type Target = 'key' | 'field' | 'table' | 'row' | 'root';

interface Capture {
  target: Target;
  parts: string[];
  chars: number;
  depth: number;
  inString: boolean;
  escape: boolean;
  scalar: boolean;
  /** Where it starts in the document (characters). */
  start: number;
}

function syntaxError(message: string): ValidationError {
  return new ValidationError(`Request body is not valid JSON: ${message}`, { code: 'INVALID_JSON' });
}

/** The reader; `push` each piece of text in order, then `end`. */
export class DocumentTokenizer {
  private offset = 0;
  private level: Level = 'none';
  private expect: Expect = 'value';
  /** Right after `{` or `[`: the container may close at once. */
  private closeAllowed = false;
  private key = '';
  private table = '';
  private index = 0;
  private capture: Capture | null = null;
  private items: DocumentItem[] = [];
  /** Cached positions of the next quote and backslash in the current piece (-1: not looked up yet). */
  private nextQuote = -1;
  private nextBackslash = -1;

  /** Reads one piece of text; answers the items it completed. */
  push(text: string): DocumentItem[] {
    this.nextQuote = -1;
    this.nextBackslash = -1;
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.capture) {
        i = this.scanCapture(text, i);
        continue;
      }
      const c = text.charCodeAt(i);
      if (isSpace(c)) i += 1;
      else i = this.structure(text, i, c);
    }
    this.offset += n;
    return this.take();
  }

  /** The text has ended: answers the last items, or throws when the document is incomplete. */
  end(): DocumentItem[] {
    const capture = this.capture;
    if (capture?.scalar && capture.target === 'root') this.finish(capture);
    else if (this.level === 'none' && this.expect === 'value' && !capture) return this.take(); // no body at all
    if (this.expect !== 'end' || this.capture)
      throw syntaxError(`the document ends early, inside ${this.where()} (at character ${this.offset})`);
    return this.take();
  }

  private take(): DocumentItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  /** Where the reader is, for a refusal: the row, the table or the envelope. */
  private where(): string {
    if (this.capture?.target === 'row') return `tables.${this.table}[${this.index}]`;
    if (this.capture?.target === 'key') return 'a key';
    if (this.capture?.target === 'field') return `the field ${this.key}`;
    if (this.level === 'array') return `tables.${this.table} (after ${this.index} rows)`;
    if (this.level === 'tables') return this.capture ? `tables.${this.key}` : 'tables';
    return 'the envelope';
  }

  private unexpected(text: string, i: number, wanted: string): ValidationError {
    const found = JSON.stringify(text.charAt(i));
    return syntaxError(
      `expected ${wanted} at character ${this.offset + i} (in ${this.where()}), found ${found}`,
    );
  }

  /** Reads one structural character at `i` (not white space); answers where reading goes on. */
  private structure(text: string, i: number, c: number): number {
    switch (this.expect) {
      case 'end':
        throw this.unexpected(text, i, 'the end of the document');
      case 'colon':
        if (c !== COLON) throw this.unexpected(text, i, "':'");
        this.expect = 'value';
        return i + 1;
      case 'key':
        if (c === CLOSE_OBJECT && this.closeAllowed) return this.close(i);
        if (c !== QUOTE) throw this.unexpected(text, i, 'a key');
        return this.begin('key', i, c);
      case 'next':
        if (c === COMMA) {
          this.expect = this.level === 'array' ? 'value' : 'key';
          this.closeAllowed = false;
          return i + 1;
        }
        if (c === (this.level === 'array' ? CLOSE_ARRAY : CLOSE_OBJECT)) return this.close(i);
        throw this.unexpected(text, i, this.level === 'array' ? "',' or ']'" : "',' or '}'");
      default:
        if (c === CLOSE_ARRAY && this.level === 'array' && this.closeAllowed) return this.close(i);
        if (c === COMMA || c === COLON || c === CLOSE_ARRAY || c === CLOSE_OBJECT)
          throw this.unexpected(text, i, 'a value');
        return this.value(i, c);
    }
  }

  /** A value starts at `i`: a structural level opens, or the value is read whole. */
  private value(i: number, c: number): number {
    const opens =
      (this.level === 'none' && c === OPEN_OBJECT) ||
      (this.level === 'root' && c === OPEN_OBJECT && this.key === 'tables') ||
      (this.level === 'tables' && c === OPEN_ARRAY);
    if (!opens) {
      return this.begin(TARGET_AT[this.level], i, c);
    }
    if (this.level === 'tables') {
      this.table = this.key;
      this.index = 0;
      this.items.push({ kind: 'array', table: this.key });
    }
    if (this.level === 'root') this.items.push({ kind: 'tables' });
    this.level = INNER[this.level];
    this.expect = this.level === 'array' ? 'value' : 'key';
    this.closeAllowed = true;
    return i + 1;
  }

  private close(i: number): number {
    this.level = OUTER[this.level];
    this.expect = this.level === 'none' ? 'end' : 'next';
    this.closeAllowed = false;
    return i + 1;
  }

  private begin(target: Target, i: number, c: number): number {
    const scalar = c !== QUOTE && c !== OPEN_OBJECT && c !== OPEN_ARRAY;
    const start = this.offset + i;
    this.capture = { target, parts: [], chars: 0, depth: 0, inString: false, escape: false, scalar, start };
    return i;
  }

  /** Reads on in the value being captured from `from`; answers where reading goes on. */
  private scanCapture(text: string, from: number): number {
    const capture = this.capture as Capture;
    const n = text.length;
    let i = from;
    if (capture.scalar) {
      while (i < n && !endsScalar(text.charCodeAt(i))) i += 1;
      this.keep(capture, text, from, i);
      if (i < n) this.finish(capture);
      return i;
    }
    while (i < n) {
      if (capture.inString) {
        if (capture.escape) {
          capture.escape = false;
          i += 1;
          continue;
        }
        // Strings are most of a row: jump to its next quote or backslash instead of reading each character.
        if (this.nextQuote < i) this.nextQuote = indexOr(text, '"', i, n);
        if (this.nextBackslash < i) this.nextBackslash = indexOr(text, '\\', i, n);
        if (this.nextBackslash < this.nextQuote) {
          i = this.nextBackslash + 1;
          capture.escape = true;
          continue;
        }
        i = this.nextQuote + 1;
        if (i > n) break;
        capture.inString = false;
        if (capture.depth === 0) return this.done(capture, text, from, i);
        continue;
      }
      const c = text.charCodeAt(i);
      i += 1;
      if (c === QUOTE) capture.inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        capture.depth += 1;
        if (capture.depth > MAX_VALUE_DEPTH)
          throw new ValidationError(`Request body must not be nested more than 64 levels deep`);
      } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --capture.depth === 0)
        return this.done(capture, text, from, i);
    }
    this.keep(capture, text, from, n);
    return n;
  }

  private done(capture: Capture, text: string, from: number, to: number): number {
    this.keep(capture, text, from, to);
    this.finish(capture);
    return to;
  }

  private keep(capture: Capture, text: string, from: number, to: number): void {
    if (to <= from) return;
    capture.chars += to - from;
    if (capture.chars > MAX_VALUE_CHARS)
      throw new ValidationError(
        `A value of the document (in ${this.where()}) is longer than ${MAX_VALUE_CHARS} characters`,
        { code: 'INVALID_JSON' },
      );
    capture.parts.push(from === 0 && to === text.length ? text : text.slice(from, to));
  }

  /** The value is whole: parsed (its syntax checked) and handed on. */
  private finish(capture: Capture): void {
    let value: unknown;
    try {
      value = JSON.parse(capture.parts.length === 1 ? (capture.parts[0] as string) : capture.parts.join(''));
    } catch {
      throw syntaxError(`a malformed value in ${this.where()} (from character ${capture.start})`);
    }
    this.capture = null;
    this.emit(capture.target, value);
  }

  private emit(target: Target, value: unknown): void {
    this.expect = 'next';
    if (target === 'key') {
      if (typeof value !== 'string') throw syntaxError(`a key that is no string in ${this.where()}`);
      this.key = value;
      this.expect = 'colon';
    } else if (target === 'row') {
      this.items.push({ kind: 'row', table: this.table, index: this.index, value });
      this.index += 1;
    } else if (target === 'field') this.items.push({ kind: 'field', key: this.key, value });
    else if (target === 'table') this.items.push({ kind: 'table', table: this.key, value });
    else {
      this.items.push({ kind: 'root', value });
      this.expect = 'end';
    }
  }
}

/** The index of `search` in `text` from `from`, or `n` (past the end) when there is none. */
function indexOr(text: string, search: string, from: number, n: number): number {
  const found = text.indexOf(search, from);
  return found < 0 ? n : found;
}

/**
 * The items of a document read from its bytes (UTF-8, cut anywhere: a character split between chunks is joined).
 * Bytes that are not UTF-8 are a 400 INVALID_JSON.
 */
export async function* documentItems(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<DocumentItem> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const tokenizer = new DocumentTokenizer();
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new ValidationError('Request body is not valid UTF-8', { code: 'INVALID_JSON' });
    }
  };
  for await (const chunk of chunks) yield* tokenizer.push(typeof chunk === 'string' ? chunk : decode(chunk));
  yield* tokenizer.push(decode());
  yield* tokenizer.end();
}
