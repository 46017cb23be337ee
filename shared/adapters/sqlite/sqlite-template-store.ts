/**
 * TemplateStore over the data SQLite file: a SqliteScopedTable (capped create, find, update, delete, all scoped to
 * the session). Names are unique per session by a UNIQUE index, so two racing creates or renames cannot both take
 * one; a violation of it becomes TEMPLATE_NAME_TAKEN.
 */
import type { Template } from '#shared/domain/template.js';
import {
  TEMPLATE_PATCH_FIELDS,
  type TemplatePatch,
  type TemplateStore,
  templateLimitReached,
  templateNameTaken,
} from '#shared/ports/template-store.port.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { SqliteScopedTable } from './sqlite-scoped-table.js';
import { LazyStatement, runSql } from './sqlite-store-support.js';

interface TemplateRow {
  id: string;
  session_id: string;
  name: string;
  body: string;
  header: string | null;
  footer: string | null;
  created_at: string;
  updated_at: string;
}

const STORE = 'Template store';

const COLUMNS = [
  'id',
  'session_id',
  'name',
  'body',
  'header',
  'footer',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof TemplateRow)[];

function toTemplate(row: TemplateRow): Template {
  return {
    id: row.id,
    sessionId: row.session_id,
    name: row.name,
    body: row.body,
    header: row.header,
    footer: row.footer,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(template: Template): TemplateRow {
  return {
    id: template.id,
    session_id: template.sessionId,
    name: template.name,
    body: template.body,
    header: template.header,
    footer: template.footer,
    created_at: template.createdAt,
    updated_at: template.updatedAt,
  };
}

/** Templates in SQLite; a session's templates go with it (ON DELETE CASCADE). */
export class SqliteTemplateStore implements TemplateStore {
  private readonly table: SqliteScopedTable<Template, TemplateRow>;
  private readonly selectByName: LazyStatement<[string, string], TemplateRow>;

  constructor(db: SqliteDb) {
    this.table = new SqliteScopedTable(db, {
      table: 'templates',
      store: STORE,
      what: 'template',
      columns: COLUMNS,
      toRow,
      fromRow: toTemplate,
      order: 'created_at DESC, id DESC',
      limitReached: templateLimitReached,
      conflictOn: (target, written) =>
        target === 'templates.name' && written.name !== undefined
          ? templateNameTaken(written.name)
          : undefined,
    });
    this.selectByName = new LazyStatement(db, 'SELECT * FROM templates WHERE session_id = ? AND name = ?');
  }

  async create(template: Template, cap: PerSessionCap): Promise<void> {
    this.table.create(template, cap);
  }

  async findById(sessionId: string, id: string): Promise<Template | null> {
    return this.table.find(sessionId, id);
  }

  async findByName(sessionId: string, name: string): Promise<Template | null> {
    return runSql(STORE, () => {
      const row = this.selectByName.get(sessionId, name);
      return row === undefined ? null : toTemplate(row);
    });
  }

  async listBySession(sessionId: string): Promise<Template[]> {
    return this.table.listBySession(sessionId);
  }

  async update(sessionId: string, id: string, patch: TemplatePatch): Promise<Template | null> {
    return this.table.update(sessionId, id, patch, TEMPLATE_PATCH_FIELDS);
  }

  async delete(sessionId: string, id: string): Promise<boolean> {
    return this.table.delete(sessionId, id);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return this.table.deleteBySession(sessionId);
  }
}
