/**
 * WebhookStore over the data SQLite file. The session-scoped basics (capped create, find, update, delete) come from
 * SqliteScopedTable; the fan-out read (`listActive`) and `touchTriggered`, which run for every event and every
 * delivery, use statements prepared once here.
 */
import type { Page } from '#shared/domain/common.js';
import { type Webhook, WebhookEventName } from '#shared/domain/webhook.js';
import { WebhookFilters } from '#shared/domain/webhook-filters.js';
import {
  type PerSessionCap,
  WEBHOOK_PATCH_FIELDS,
  type WebhookListFilter,
  type WebhookPatch,
  type WebhookStore,
  webhookLimitReached,
} from '#shared/ports/webhook-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { SqliteScopedTable } from './sqlite-scoped-table.js';
import {
  LazyStatement,
  parseJsonObject,
  parseJsonWith,
  parseStringList,
  runSql,
  StatementCache,
  toJsonColumn,
} from './sqlite-store-support.js';

interface WebhookRow {
  id: string;
  session_id: string;
  url: string;
  events: string;
  secret: string | null;
  headers: string;
  filters: string | null;
  active: number;
  retry_count: number;
  last_triggered_at: string | null;
  created_at: string;
  updated_at: string;
}

const STORE = 'Webhook store';
const NEWEST_FIRST = 'created_at DESC, id DESC';

function toWebhook(row: WebhookRow): Webhook {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseJsonObject(row.headers) ?? {})) {
    if (typeof value === 'string') headers[name] = value;
  }
  return {
    id: row.id,
    sessionId: row.session_id,
    url: row.url,
    // A corrupt list reads as no events (nothing delivered) rather than as every event.
    events: (parseStringList(row.events) ?? []).filter(
      (event): event is WebhookEventName => WebhookEventName.safeParse(event).success,
    ),
    secret: row.secret,
    headers,
    filters: parseJsonWith(row.filters, WebhookFilters),
    active: row.active === 1,
    retryCount: row.retry_count,
    lastTriggeredAt: row.last_triggered_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(webhook: Webhook): WebhookRow {
  return {
    id: webhook.id,
    session_id: webhook.sessionId,
    url: webhook.url,
    events: JSON.stringify(webhook.events),
    secret: webhook.secret,
    headers: JSON.stringify(webhook.headers),
    filters: toJsonColumn(webhook.filters),
    active: webhook.active ? 1 : 0,
    retry_count: webhook.retryCount,
    last_triggered_at: webhook.lastTriggeredAt,
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
  };
}

const COLUMNS = [
  'id',
  'session_id',
  'url',
  'events',
  'secret',
  'headers',
  'filters',
  'active',
  'retry_count',
  'last_triggered_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof WebhookRow)[];

/** Webhooks in SQLite; a session's rows go with it (ON DELETE CASCADE). */
export class SqliteWebhookStore implements WebhookStore {
  private readonly table: SqliteScopedTable<Webhook, WebhookRow>;
  private readonly selectActive: LazyStatement<[string], WebhookRow>;
  private readonly touch: LazyStatement<{ session_id: string; id: string; at: string }>;
  private readonly rows: StatementCache<WebhookRow>;

  constructor(db: SqliteDb) {
    this.table = new SqliteScopedTable(db, {
      table: 'webhooks',
      store: STORE,
      what: 'webhook',
      columns: COLUMNS,
      toRow,
      fromRow: toWebhook,
      order: NEWEST_FIRST,
      limitReached: webhookLimitReached,
    });
    this.selectActive = new LazyStatement(
      db,
      `SELECT * FROM webhooks WHERE session_id = ? AND active = 1 ORDER BY ${NEWEST_FIRST}`,
    );
    // Deliveries finish out of order: an older one never moves the time back.
    this.touch = new LazyStatement(
      db,
      `UPDATE webhooks SET last_triggered_at = @at
       WHERE session_id = @session_id AND id = @id AND (last_triggered_at IS NULL OR last_triggered_at < @at)`,
    );
    this.rows = new StatementCache(db);
  }

  async create(webhook: Webhook, cap: PerSessionCap): Promise<void> {
    this.table.create(webhook, cap);
  }

  async findById(sessionId: string, id: string): Promise<Webhook | null> {
    return this.table.find(sessionId, id);
  }

  async listBySession(sessionId: string): Promise<Webhook[]> {
    return this.table.listBySession(sessionId);
  }

  async list(filter: WebhookListFilter, page: Page): Promise<Webhook[]> {
    if (filter.sessionIds?.length === 0) return [];
    const params: Record<string, unknown> = { limit: page.limit, offset: page.offset };
    let where = '';
    if (filter.sessionIds !== undefined) {
      // A bound JSON array keeps one statement for any number of sessions.
      where = 'WHERE session_id IN (SELECT value FROM json_each(@ids))';
      params.ids = JSON.stringify(filter.sessionIds);
    }
    const sql = `SELECT * FROM webhooks ${where} ORDER BY ${NEWEST_FIRST} LIMIT @limit OFFSET @offset`;
    return runSql(STORE, () => this.rows.all(sql, params).map(toWebhook));
  }

  async listActive(sessionId: string): Promise<Webhook[]> {
    return runSql(STORE, () => this.selectActive.all(sessionId).map(toWebhook));
  }

  async update(sessionId: string, id: string, patch: WebhookPatch): Promise<Webhook | null> {
    return this.table.update(sessionId, id, patch, WEBHOOK_PATCH_FIELDS);
  }

  async delete(sessionId: string, id: string): Promise<boolean> {
    return this.table.delete(sessionId, id);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return this.table.deleteBySession(sessionId);
  }

  async touchTriggered(sessionId: string, id: string, at: Date): Promise<void> {
    runSql(STORE, () => this.touch.run({ session_id: sessionId, id, at: at.toISOString() }));
  }
}
