/**
 * The import's two reads of a document it holds as bytes (a spooled request body): the check (pass 1) meets every
 * row once and keeps only what validation needs across rows (import-validation.ts); the write (pass 2) reads the
 * document again and hands its rows to the table registry a page at a time. Neither holds more than a page of rows.
 */
import type { z } from 'zod';
import {
  CREDENTIALS_TABLE,
  EXPORT_ROW_SCHEMAS,
  EXPORT_TABLES,
  type ExportRow,
  type ExportTable,
} from '#shared/domain/data-export.js';
import type { ExportCredentials } from '#shared/domain/data-export-rows.js';
import { ValidationError } from '#shared/errors/app-error.js';
import { checkCredentialRows } from './export-credentials.js';
import {
  EXPORT_PAGE_SIZE,
  EXPORT_TABLE_REGISTRY,
  type ExportTableEntry,
  type TableDeps,
} from './export-tables.js';
import { documentItems } from './import-tokenizer.js';
import { ImportChecker, isExportTable, type RowProblem } from './import-validation.js';

/** A document the import reads twice (to check it, then to write it): its bytes from the start at each call. */
export interface ImportSource {
  read(): AsyncIterable<Uint8Array | string>;
}

/** What the envelope of a document tells the import. */
export interface ImportEnvelope {
  mode: 'embedded' | 'aws';
  /** Stop the running sessions first instead of refusing (409) while any runs. */
  stopSessions: boolean;
}

/** The transport's checks of what it did not parse itself (a body parsed whole gets them once, whole). */
export interface ImportBodyChecks {
  /** The document without its rows (each table that is an array stands as an empty one); throws a 400. */
  envelope(value: unknown): ImportEnvelope;
  /** Any value read (a row, a field): NUL characters, nesting; throws a 400. */
  value(value: unknown): void;
}

/** What the check found: the document's options, rows per table, sessions and credentials. */
export interface CheckedDocument {
  envelope: ImportEnvelope;
  counts: Record<ExportTable, number>;
  sessionIds: string[];
  /** The credentials rows (one per session at most), when the document carries that table. */
  credentials: ExportCredentials[] | null;
  /** The tables come in EXPORT_TABLES order, each once (as an export writes them): one read writes them all. */
  inOrder: boolean;
}

function refuse(problems: RowProblem[]): never {
  const first = problems[0];
  throw new ValidationError(
    `The document has invalid rows (first: ${first?.table}[${first?.index}] ${first?.path}: ${first?.message}); nothing was imported`,
    { code: 'IMPORT_INVALID', details: { problems } },
  );
}

/**
 * Pass 1: reads the whole document and checks it (the envelope, every row), refusing it whole (400) before anything
 * is written. Once the refusal names as many problems as it may, the rest is not read.
 */
export async function checkDocument(
  source: ImportSource,
  checks: ImportBodyChecks,
): Promise<CheckedDocument> {
  const checker = new ImportChecker();
  let envelope: Record<string, unknown> | undefined;
  let rootValue: unknown;
  const tablesMet = new Set<string>();
  let lastOrder = -1;
  let inOrder = true;
  let credentials: unknown[] | null = null;
  for await (const item of documentItems(source.read())) {
    envelope ??= {};
    if (item.kind === 'root') rootValue = item.value;
    else if (item.kind === 'field') {
      checks.value(item.value);
      envelope[item.key] = item.value;
    } else if (item.kind === 'tables') envelope.tables = {};
    else if (item.kind === 'table') (envelope.tables as Record<string, unknown>)[item.table] = item.value;
    else if (item.kind === 'array') {
      const { table } = item;
      if (tablesMet.has(table)) checker.repeated(table, 0);
      tablesMet.add(table);
      if (table === CREDENTIALS_TABLE) credentials ??= [];
      const order = EXPORT_TABLES.indexOf(table as ExportTable);
      if (order >= 0 && order < lastOrder) inOrder = false;
      lastOrder = Math.max(lastOrder, order);
    } else {
      const { table, index, value } = item;
      checks.value(value);
      if (table === CREDENTIALS_TABLE) credentials?.push(value);
      else if (isExportTable(table)) checker.row(table, index, value);
      if (checker.full) refuse(checker.finish());
    }
  }
  const options = checks.envelope(envelope ?? rootValue);
  const problems = checker.finish();
  if (problems.length > 0) refuse(problems);
  const sessionIds = [...checker.sessions];
  const credentialRows = credentials ? checkCredentialRows(credentials, checker.sessions) : null;
  if (credentialRows && credentialRows.problems.length > 0) refuse(credentialRows.problems);
  return {
    envelope: options,
    counts: Object.fromEntries(
      EXPORT_TABLES.map((table) => [table, checker.count(table)]),
    ) as CheckedDocument['counts'],
    sessionIds,
    credentials: credentialRows?.rows ?? null,
    inOrder,
  };
}

/**
 * Pass 2: writes the document's rows into a data store emptied of sessions, a page at a time, tables in
 * EXPORT_TABLES order (sessions first: every other row names one). A document laid out in that order is read once;
 * any other layout is read once per table. Answers the API keys (a few rows: the import adds them after the data).
 */
export async function writeDocument(
  deps: TableDeps,
  source: ImportSource,
  checked: CheckedDocument,
): Promise<ExportRow<'apiKeys'>[]> {
  const apiKeys: ExportRow<'apiKeys'>[] = [];
  const present = EXPORT_TABLES.filter((table) => checked.counts[table] > 0);
  const reads = checked.inOrder ? [new Set(present)] : present.map((table) => new Set([table]));
  for (const tables of reads) {
    let table: ExportTable | null = null;
    let page: unknown[] = [];
    const flush = async () => {
      if (table === null || page.length === 0) return;
      const entry = EXPORT_TABLE_REGISTRY[table] as ExportTableEntry<ExportTable>;
      await entry.write(deps, page as ExportRow<ExportTable>[]);
      page = [];
    };
    for await (const item of documentItems(source.read())) {
      if (item.kind !== 'row' || !tables.has(item.table as ExportTable)) continue;
      if (item.table !== table) await flush();
      table = item.table as ExportTable;
      const row = (EXPORT_ROW_SCHEMAS[table] as z.ZodType).parse(item.value);
      if (table === 'apiKeys') apiKeys.push(row as ExportRow<'apiKeys'>);
      else page.push(row);
      if (page.length >= EXPORT_PAGE_SIZE) await flush();
    }
    await flush();
  }
  return apiKeys;
}
