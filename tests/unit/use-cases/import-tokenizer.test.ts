import { describe, expect, it } from '@jest/globals';
import { AppError } from '#shared/errors/app-error.js';
import {
  type DocumentItem,
  DocumentTokenizer,
  documentItems,
} from '#shared/use-cases/infra/import-tokenizer.js';

/** A small document with what trips a naive reader: braces, brackets, quotes and escapes inside strings. */
const SAMPLE = {
  format: 'waygate-data-export',
  formatVersion: 1,
  note: 'a } and a ] and a "quote" and a \\ backslash, \u00e9t\u00e9 \ud83d\ude00',
  tables: {
    sessions: [{ id: 's1', name: '{not: [an object]}', nested: { deep: [[1, 2], { x: null }] } }],
    empty: [],
    messages: [
      { id: 'm1', body: 'line\nbreak\t"tab"\\', n: -1.5e3 },
      { id: 'm2', body: '\\"', ok: true },
      'a bare string row',
      42,
    ],
    notATable: { a: 1 },
  },
  stopSessions: false,
};

/** The items the tokenizer should give for SAMPLE. */
const EXPECTED: DocumentItem[] = [
  { kind: 'field', key: 'format', value: SAMPLE.format },
  { kind: 'field', key: 'formatVersion', value: 1 },
  { kind: 'field', key: 'note', value: SAMPLE.note },
  { kind: 'tables' },
  { kind: 'array', table: 'sessions' },
  { kind: 'row', table: 'sessions', index: 0, value: SAMPLE.tables.sessions[0] },
  { kind: 'array', table: 'empty' },
  { kind: 'array', table: 'messages' },
  ...SAMPLE.tables.messages.map((value, index) => ({
    kind: 'row' as const,
    table: 'messages',
    index,
    value,
  })),
  { kind: 'table', table: 'notATable', value: { a: 1 } },
  { kind: 'field', key: 'stopSessions', value: false },
];

function tokenize(pieces: readonly string[]): DocumentItem[] {
  const tokenizer = new DocumentTokenizer();
  const items = pieces.flatMap((piece) => tokenizer.push(piece));
  return [...items, ...tokenizer.end()];
}

function refusal(pieces: readonly string[]): AppError {
  try {
    tokenize(pieces);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the document was not refused');
}

async function collect(chunks: AsyncIterable<Uint8Array | string>): Promise<DocumentItem[]> {
  const items: DocumentItem[] = [];
  for await (const item of documentItems(chunks)) items.push(item);
  return items;
}

async function* bytes(buffer: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < buffer.length; i += size) yield buffer.subarray(i, i + size);
}

describe('the import document tokenizer', () => {
  it('reads a compact document', () => {
    expect(tokenize([JSON.stringify(SAMPLE)])).toEqual(EXPECTED);
  });

  it('reads a pretty-printed one, and one with rows across lines and several per line', () => {
    expect(tokenize([JSON.stringify(SAMPLE, null, 2)])).toEqual(EXPECTED);
    const odd = JSON.stringify(SAMPLE, null, '\t').replaceAll('\n', '\r\n   \n');
    expect(tokenize([odd])).toEqual(EXPECTED);
  });

  it('reads it cut at every character boundary', () => {
    const text = JSON.stringify(SAMPLE, null, 1);
    for (let cut = 0; cut <= text.length; cut += 1)
      expect({ cut, items: tokenize([text.slice(0, cut), text.slice(cut)]) }).toEqual({
        cut,
        items: EXPECTED,
      });
  });

  it('reads its UTF-8 bytes cut at every byte boundary (a character split between chunks too)', async () => {
    const buffer = Buffer.from(JSON.stringify(SAMPLE));
    for (let cut = 0; cut <= buffer.length; cut += 1) {
      const chunks = (async function* () {
        yield buffer.subarray(0, cut);
        yield buffer.subarray(cut);
      })();
      expect({ cut, items: await collect(chunks) }).toEqual({ cut, items: EXPECTED });
    }
    expect(await collect(bytes(buffer, 1))).toEqual(EXPECTED);
  });

  it('gives a document that is no object as its root value, and no item for no body at all', () => {
    expect(tokenize(['[1, 2]'])).toEqual([{ kind: 'root', value: [1, 2] }]);
    expect(tokenize([' 12', '34 '])).toEqual([{ kind: 'root', value: 1234 }]);
    expect(tokenize(['null'])).toEqual([{ kind: 'root', value: null }]);
    expect(tokenize(['  \n'])).toEqual([]);
  });

  it('refuses a truncated document, naming where it ends', () => {
    const text = JSON.stringify(SAMPLE);
    const inRow = text.indexOf('"m2"');
    const error = refusal([text.slice(0, inRow)]);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    expect(error.message).toContain('ends early, inside tables.messages[1]');
    expect(refusal([text.slice(0, text.indexOf('},{"id":"m2"') + 2)]).message).toContain(
      'inside tables.messages (after 1 rows)',
    );
    expect(refusal([text.slice(0, 10)]).message).toContain('ends early');
    expect(refusal([`${text.slice(0, -1)} `]).message).toContain('inside the envelope');
    expect(refusal([text.slice(0, -1)]).message).toContain('inside the field stopSessions');
  });

  it('refuses what is not JSON, naming where', () => {
    const bad = refusal(['{"tables":{"messages":[{"id":1},{"id":2,}]}}']);
    expect(bad).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    expect(bad.message).toContain('tables.messages[1]');
    expect(refusal(['{"a":1 "b":2}']).message).toContain("expected ',' or '}' at character 7");
    expect(refusal(['{"a":1}x']).message).toContain('expected the end of the document');
    expect(refusal(['{"tables":{"m":[1,,2]}}']).message).toContain('expected a value');
    expect(refusal(['{a:1}']).message).toContain('expected a key');
    expect(refusal(['{"a" 1}']).message).toContain("expected ':'");
    expect(refusal(['{"a":tru}']).message).toContain('a malformed value in the field a');
  });

  it('refuses bytes that are not UTF-8', async () => {
    const chunks = bytes(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 3);
    await expect(collect(chunks)).rejects.toMatchObject({ status: 400, code: 'INVALID_JSON' });
  });

  it('refuses a row nested deeper than a body may be', () => {
    const deep = `${'['.repeat(70)}${']'.repeat(70)}`;
    expect(refusal([`{"tables":{"m":[${deep}]}}`])).toMatchObject({ status: 400 });
  });
});
