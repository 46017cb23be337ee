/**
 * AutomationRuleStore over the data SQLite file. Rules are a SqliteScopedTable (capped create, find, update,
 * delete, all scoped to the session). A cooldown claim is one upsert whose update only fires once the stored
 * cooldown has ended, so the check and the write are a single statement and two racing claims cannot both win;
 * it runs for every inbound message a rule matches, so its statements are prepared once.
 */
import type Database from 'better-sqlite3';
import type { AutomationRule } from '#shared/domain/automation-rule.js';
import { WebhookFilters } from '#shared/domain/webhook-filters.js';
import {
  AUTOMATION_RULE_PATCH_FIELDS,
  type AutomationRulePatch,
  type AutomationRuleStore,
  automationRuleLimitReached,
  cooldownEnd,
} from '#shared/ports/automation-rule-store.port.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { SqliteScopedTable } from './sqlite-scoped-table.js';
import { LazyStatement, parseJsonWith, runSql, toJsonColumn } from './sqlite-store-support.js';

interface RuleRow {
  id: string;
  session_id: string;
  name: string;
  enabled: number;
  conditions: string | null;
  reply_text: string;
  cooldown_seconds: number;
  created_at: string;
  updated_at: string;
}

interface ClaimParams {
  rule_id: string;
  chat_id: string;
  now: string;
  ends_at: string;
}

const STORE = 'Automation rule store';

/**
 * Ended cooldowns removed per claim. Each claim adds at most one row and sweeps up to this many ended ones (found
 * through the `ends_at` index), so the table stays near the number of cooldowns running without a separate job.
 */
const SWEEP_PER_CLAIM = 16;

const COLUMNS = [
  'id',
  'session_id',
  'name',
  'enabled',
  'conditions',
  'reply_text',
  'cooldown_seconds',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof RuleRow)[];

function toRule(row: RuleRow): AutomationRule {
  return {
    id: row.id,
    sessionId: row.session_id,
    name: row.name,
    enabled: row.enabled === 1,
    conditions: parseJsonWith(row.conditions, WebhookFilters),
    replyText: row.reply_text,
    cooldownSeconds: row.cooldown_seconds,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(rule: AutomationRule): RuleRow {
  return {
    id: rule.id,
    session_id: rule.sessionId,
    name: rule.name,
    enabled: rule.enabled ? 1 : 0,
    conditions: toJsonColumn(rule.conditions),
    reply_text: rule.replyText,
    cooldown_seconds: rule.cooldownSeconds,
    created_at: rule.createdAt,
    updated_at: rule.updatedAt,
  };
}

/** Rules and their cooldowns in SQLite; a session's rules go with it (ON DELETE CASCADE). */
export class SqliteAutomationRuleStore implements AutomationRuleStore {
  private readonly table: SqliteScopedTable<AutomationRule, RuleRow>;
  private readonly claimTx: Database.Transaction<(params: ClaimParams) => boolean>;

  constructor(db: SqliteDb) {
    this.table = new SqliteScopedTable(db, {
      table: 'automation_rules',
      store: STORE,
      what: 'automation rule',
      columns: COLUMNS,
      toRow,
      fromRow: toRule,
      order: 'created_at ASC, id ASC',
      limitReached: automationRuleLimitReached,
    });
    const sweep = new LazyStatement<[string, number]>(
      db,
      `DELETE FROM automation_cooldowns
       WHERE rowid IN (SELECT rowid FROM automation_cooldowns WHERE ends_at <= ? LIMIT ?)`,
    );
    // Inserts a first cooldown, or replaces an ended one; a running one matches the conflict but not the WHERE,
    // so nothing changes and the claim is refused.
    const claim = new LazyStatement<ClaimParams>(
      db,
      `INSERT INTO automation_cooldowns (rule_id, chat_id, ends_at) VALUES (@rule_id, @chat_id, @ends_at)
       ON CONFLICT (rule_id, chat_id) DO UPDATE SET ends_at = excluded.ends_at
       WHERE automation_cooldowns.ends_at <= @now`,
    );
    this.claimTx = db.transaction((params: ClaimParams) => {
      sweep.run(params.now, SWEEP_PER_CLAIM);
      return claim.run(params).changes > 0;
    });
  }

  async create(rule: AutomationRule, cap: PerSessionCap): Promise<void> {
    this.table.create(rule, cap);
  }

  async findById(sessionId: string, id: string): Promise<AutomationRule | null> {
    return this.table.find(sessionId, id);
  }

  async listBySession(sessionId: string): Promise<AutomationRule[]> {
    return this.table.listBySession(sessionId);
  }

  async update(sessionId: string, id: string, patch: AutomationRulePatch): Promise<AutomationRule | null> {
    return this.table.update(sessionId, id, patch, AUTOMATION_RULE_PATCH_FIELDS);
  }

  async delete(sessionId: string, id: string): Promise<boolean> {
    return this.table.delete(sessionId, id);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return this.table.deleteBySession(sessionId);
  }

  async claimCooldown(ruleId: string, chatId: string, now: Date, cooldownSeconds: number): Promise<boolean> {
    if (cooldownSeconds <= 0) return true;
    const params = {
      rule_id: ruleId,
      chat_id: chatId,
      now: now.toISOString(),
      ends_at: cooldownEnd(now, cooldownSeconds),
    };
    return runSql(STORE, () => this.claimTx.immediate(params));
  }
}
