/**
 * The import's check of a whole document before anything is written: every row against its table's schema (the
 * domain record), ids unique per table, every row's session among the document's sessions, session names and
 * network message ids unique as the stores keep them. It answers the rows it keeps (parsed) and the first problems
 * found, each naming its table, row index and field path.
 */
import type { z } from 'zod';
import {
  type CREDENTIALS_TABLE,
  EXPORT_ROW_KEYS,
  EXPORT_ROW_SCHEMAS,
  EXPORT_TABLES,
  type ExportRow,
  type ExportTable,
  SESSION_SCOPED_TABLES,
} from '#shared/domain/data-export.js';

/** One bad row: where it is in the document and what is wrong with it. */
export interface RowProblem {
  table: ExportTable | typeof CREDENTIALS_TABLE;
  index: number;
  /** The field path inside the row (dotted; empty for the row as a whole). */
  path: string;
  message: string;
}

/** The most problems a refusal names: the first ones, which is enough to fix a document and keeps the 400 small. */
export const MAX_REPORTED_PROBLEMS = 20;

/** A document's rows, parsed, by table. */
export type ImportRows = { [T in ExportTable]: ExportRow<T>[] };

/** The validated rows, or the problems (then none is written). */
export type ImportCheck = { ok: true; rows: ImportRows } | { ok: false; problems: RowProblem[] };

/** What must be unique in a table besides `id`, as the stores enforce it (a duplicate would fail mid-write). */
const UNIQUE_BY: { [T in ExportTable]?: (row: ExportRow<T>) => string | null } = {
  sessions: (session) => session.name,
  apiKeys: (key) => key.keyHash,
  templates: (template) => `${template.sessionId}\u0000${template.name}`,
  batches: (batch) => `${batch.sessionId}\u0000${batch.batchId}`,
  messages: (message) =>
    message.waMessageId === null ? null : `${message.sessionId}\u0000${message.waMessageId}`,
};

class Problems {
  readonly list: RowProblem[] = [];
  add(table: ExportTable, index: number, path: string, message: string): void {
    if (this.list.length < MAX_REPORTED_PROBLEMS) this.list.push({ table, index, path, message });
  }
  get full(): boolean {
    return this.list.length >= MAX_REPORTED_PROBLEMS;
  }
}

function parseTable<T extends ExportTable>(
  table: T,
  raw: readonly unknown[],
  problems: Problems,
  sessionIds: ReadonlySet<string> | null,
): ExportRow<T>[] {
  const schema = EXPORT_ROW_SCHEMAS[table] as unknown as z.ZodType<ExportRow<T>>;
  const unique = UNIQUE_BY[table] as ((row: ExportRow<T>) => string | null) | undefined;
  const keyOf =
    (EXPORT_ROW_KEYS[table] as ((row: ExportRow<T>) => string) | undefined) ??
    ((row: ExportRow<T>) => (row as { id: string }).id);
  const ids = new Set<string>();
  const keys = new Set<string>();
  const rows: ExportRow<T>[] = [];
  for (const [index, value] of raw.entries()) {
    if (problems.full) break;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 3))
        problems.add(table, index, issue.path.join('.'), issue.message);
      continue;
    }
    const row = parsed.data as ExportRow<T> & { sessionId?: string };
    const id = keyOf(row);
    if (ids.has(id)) problems.add(table, index, 'id', `Duplicate row ${id.replace('\u0000', ' ')}`);
    ids.add(id);
    const key = unique?.(row) ?? null;
    if (key !== null && keys.has(key))
      problems.add(table, index, '', 'Duplicates a unique value of another row');
    if (key !== null) keys.add(key);
    if (sessionIds && row.sessionId !== undefined && !sessionIds.has(row.sessionId))
      problems.add(
        table,
        index,
        'sessionId',
        `Unknown session ${row.sessionId} (not in the document's sessions)`,
      );
    rows.push(row);
  }
  return rows;
}

/** Checks every table of the document (a table left out is an empty one). */
export function checkImportRows(tables: Partial<Record<ExportTable, readonly unknown[]>>): ImportCheck {
  const problems = new Problems();
  const sessions = parseTable('sessions', tables.sessions ?? [], problems, null);
  const sessionIds = new Set(sessions.map((session) => session.id));
  const rows = { sessions } as ImportRows;
  for (const table of EXPORT_TABLES) {
    if (table === 'sessions') continue;
    const scope = SESSION_SCOPED_TABLES.includes(table) ? sessionIds : null;
    (rows as Record<ExportTable, unknown[]>)[table] = parseTable(table, tables[table] ?? [], problems, scope);
  }
  return problems.list.length > 0 ? { ok: false, problems: problems.list } : { ok: true, rows };
}
