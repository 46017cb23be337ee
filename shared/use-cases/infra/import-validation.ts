/**
 * The import's check of a whole document before anything is written: every row against its table's schema (the
 * domain record), ids unique per table, every row's session among the document's sessions, session names and
 * network message ids unique as the stores keep them. It keeps the first problems
 * found, each naming its table, row index and field path. Rows are met one at a time (the import streams them).
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

/** What the check keeps of one table across its rows: the ids and unique values seen (strings, not rows). */
interface TableState {
  ids: Set<string>;
  keys: Set<string>;
  rows: number;
}

/** Whether `table` is one of the document's tables (any other key of `tables` is ignored, as the schema does). */
export const isExportTable = (table: string): table is ExportTable =>
  (EXPORT_TABLES as readonly string[]).includes(table);

/**
 * The check of a document's rows met one at a time, in any order: each row against its table's schema, its id and
 * unique values against those seen before, its session against the document's sessions. What it keeps is, per
 * table, the ids and unique values seen (a Set of short strings each: about 100 bytes a row, so some 200 MB for a
 * million messages) and the first row naming each session not (yet) among the sessions: a row may come before
 * its session in a document laid out otherwise than an export, so those are judged at the end.
 */
export class ImportChecker {
  private readonly problems = new Problems();
  private readonly tables = new Map<ExportTable, TableState>();
  private readonly sessionIds = new Set<string>();
  private readonly pendingSessions = new Map<string, { table: ExportTable; index: number }>();

  /** No problem can be added any more: the refusal is certain, reading on adds nothing to it. */
  get full(): boolean {
    return this.problems.full;
  }

  /** Rows met per table (the valid ones: once a problem is found, the document is refused anyway). */
  count(table: ExportTable): number {
    return this.tables.get(table)?.rows ?? 0;
  }

  /** Sessions of the document (their ids). */
  get sessions(): ReadonlySet<string> {
    return this.sessionIds;
  }

  /** Checks one row; answers it parsed, or null when it is invalid (its problems are kept). */
  row<T extends ExportTable>(table: T, index: number, value: unknown): ExportRow<T> | null {
    const state = this.tables.get(table) ?? { ids: new Set(), keys: new Set(), rows: 0 };
    this.tables.set(table, state);
    const schema = EXPORT_ROW_SCHEMAS[table] as unknown as z.ZodType<ExportRow<T>>;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 3))
        this.problems.add(table, index, issue.path.join('.'), issue.message);
      return null;
    }
    const row = parsed.data as ExportRow<T> & { sessionId?: string };
    const keyOf = EXPORT_ROW_KEYS[table] as ((row: ExportRow<T>) => string) | undefined;
    const id = keyOf ? keyOf(row) : (row as { id: string }).id;
    if (state.ids.has(id))
      this.problems.add(table, index, 'id', `Duplicate row ${id.replace('\u0000', ' ')}`);
    state.ids.add(id);
    const key = (UNIQUE_BY[table] as ((row: ExportRow<T>) => string | null) | undefined)?.(row) ?? null;
    if (key !== null && state.keys.has(key))
      this.problems.add(table, index, '', 'Duplicates a unique value of another row');
    if (key !== null) state.keys.add(key);
    if (table === 'sessions') this.sessionIds.add(id);
    const sessionId = SESSION_SCOPED_TABLES.includes(table) ? row.sessionId : undefined;
    if (sessionId !== undefined && !this.sessionIds.has(sessionId) && !this.pendingSessions.has(sessionId))
      this.pendingSessions.set(sessionId, { table, index });
    state.rows += 1;
    return row;
  }

  /** A table met twice in the document (JSON would keep the second; an import names it instead). */
  repeated(table: string, index: number): void {
    if (isExportTable(table)) this.problems.add(table, index, '', `The table ${table} appears twice`);
  }

  /** The problems, once every row is met (the rows naming a session the document lacks among them). */
  finish(): RowProblem[] {
    for (const [sessionId, { table, index }] of this.pendingSessions) {
      if (this.sessionIds.has(sessionId)) continue;
      const message = `Unknown session ${sessionId} (not in the document's sessions)`;
      this.problems.add(table, index, 'sessionId', message);
    }
    return this.problems.list;
  }
}
