/**
 * Schema of the data store: sessions, teardown fences, messages, webhooks and their delivery failures, automation
 * rules and their cooldowns, templates, send idempotency keys, identity aliases, send pacing, message batches,
 * chats and the full-text index of message bodies. Timestamps are ISO-8601 UTC strings, so text order is time order; `config`, `metadata`, `events`, `headers`, `filters`, `conditions` and the
 * batches' `messages`, `options`, `progress` and `results` are JSON text.
 */
import { MESSAGING_MIGRATIONS } from './data-store-messaging.migrations.js';
import { OPERATIONS_MIGRATIONS } from './data-store-operations.migrations.js';
import { STATS_MIGRATIONS } from './data-store-stats.migrations.js';
import type { Migration, SqliteDb } from './sqlite-database.js';

/** Ordered steps for the data store file; ids never change once released. */
export const DATA_STORE_MIGRATIONS: Migration[] = [
  {
    id: '0001_sessions',
    up(db: SqliteDb): void {
      db.exec(`
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          status TEXT NOT NULL,
          phone TEXT,
          push_name TEXT,
          config TEXT NOT NULL DEFAULT '{}',
          proxy_url TEXT,
          proxy_type TEXT,
          connected_at TEXT,
          last_active_at TEXT,
          last_error TEXT,
          node_id TEXT,
          node_url TEXT,
          claimed_at TEXT,
          lease_expires_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX idx_sessions_created_at ON sessions (created_at, id);
        CREATE INDEX idx_sessions_status ON sessions (status, created_at);
      `);
    },
  },
  {
    id: '0002_teardown_fences',
    up(db: SqliteDb): void {
      db.exec(`
        CREATE TABLE teardown_fences (
          name TEXT PRIMARY KEY,
          expires_at TEXT NOT NULL
        );
      `);
    },
  },
  {
    id: '0003_messages',
    up(db: SqliteDb): void {
      // UNIQUE (session_id, wa_message_id) dedupes re-fired inbound messages; SQLite treats NULLs as distinct, so
      // transient outgoing rows without a network id never collide. Its index also serves the network-id lookups.
      // The cascade removes a session's history with its row. `timestamp` is epoch seconds from the network.
      // Every list index ends in the list order (timestamp, created_at, id descending), so a page needs no sort;
      // `from` matches from_jid OR author, which the planner answers from the two last indexes (author is only
      // set on group messages, hence partial).
      db.exec(`
        CREATE TABLE messages (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          wa_message_id TEXT,
          chat_id TEXT NOT NULL,
          chat_name TEXT,
          author TEXT,
          from_jid TEXT NOT NULL,
          to_jid TEXT NOT NULL,
          body TEXT,
          type TEXT NOT NULL DEFAULT 'text',
          direction TEXT NOT NULL DEFAULT 'outgoing',
          timestamp INTEGER,
          metadata TEXT,
          status TEXT NOT NULL DEFAULT 'sent',
          media_path TEXT,
          media_mimetype TEXT,
          created_at TEXT NOT NULL,
          UNIQUE (session_id, wa_message_id)
        );
        CREATE INDEX idx_messages_session_time
          ON messages (session_id, timestamp DESC, created_at DESC, id DESC);
        CREATE INDEX idx_messages_session_chat
          ON messages (session_id, chat_id, timestamp DESC, created_at DESC, id DESC);
        CREATE INDEX idx_messages_session_from
          ON messages (session_id, from_jid, timestamp DESC, created_at DESC, id DESC);
        CREATE INDEX idx_messages_session_author
          ON messages (session_id, author, timestamp DESC, created_at DESC, id DESC) WHERE author IS NOT NULL;
      `);
    },
  },
  {
    id: '0004_webhooks',
    up(db: SqliteDb): void {
      // The cascade removes a session's webhooks with its row, as it does its messages. Lists are per session
      // (and its active ones, for fan-out) or across sessions, both newest first: each index ends in that order.
      db.exec(`
        CREATE TABLE webhooks (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          url TEXT NOT NULL,
          events TEXT NOT NULL,
          secret TEXT,
          headers TEXT NOT NULL DEFAULT '{}',
          filters TEXT,
          active INTEGER NOT NULL DEFAULT 1,
          retry_count INTEGER NOT NULL DEFAULT 3,
          last_triggered_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX idx_webhooks_session ON webhooks (session_id, created_at DESC, id DESC);
        CREATE INDEX idx_webhooks_created ON webhooks (created_at DESC, id DESC);
      `);
    },
  },
  {
    id: '0005_webhook_delivery_failures',
    up(db: SqliteDb): void {
      // No foreign keys: a failure record is the operator's account of what was lost and outlives its webhook and
      // session until retention prunes it (by created_at) or a later success clears its idempotency key.
      db.exec(`
        CREATE TABLE webhook_delivery_failures (
          id TEXT PRIMARY KEY,
          webhook_id TEXT NOT NULL,
          session_id TEXT NOT NULL,
          event TEXT NOT NULL,
          url TEXT NOT NULL,
          idempotency_key TEXT NOT NULL,
          delivery_id TEXT,
          attempts INTEGER NOT NULL,
          last_status_code INTEGER,
          last_error TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX idx_webhook_failures_created ON webhook_delivery_failures (created_at DESC, id DESC);
        CREATE INDEX idx_webhook_failures_session
          ON webhook_delivery_failures (session_id, created_at DESC, id DESC);
        CREATE INDEX idx_webhook_failures_key ON webhook_delivery_failures (idempotency_key);
      `);
    },
  },
  {
    id: '0006_automation_rules',
    up(db: SqliteDb): void {
      // Rules cascade with their session and are read per session in evaluation order (oldest first, id as
      // tiebreak). A cooldown row holds when the (rule, chat) quiet period ends; it has no foreign key, so a claim
      // racing a rule's deletion is not an error, and ended rows are swept by later claims through `ends_at`.
      db.exec(`
        CREATE TABLE automation_rules (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          enabled INTEGER NOT NULL DEFAULT 1,
          conditions TEXT,
          reply_text TEXT NOT NULL,
          cooldown_seconds INTEGER NOT NULL DEFAULT 60,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX idx_automation_rules_session ON automation_rules (session_id, created_at, id);
        CREATE TABLE automation_cooldowns (
          rule_id TEXT NOT NULL,
          chat_id TEXT NOT NULL,
          ends_at TEXT NOT NULL,
          PRIMARY KEY (rule_id, chat_id)
        );
        CREATE INDEX idx_automation_cooldowns_ends ON automation_cooldowns (ends_at);
      `);
    },
  },
  {
    id: '0007_event_outbox',
    up(db: SqliteDb): void {
      // No foreign key: an event outlives its session's deletion until it is relayed (its webhooks are gone with
      // the session, so the relay drops it). `due_at` orders the sweep: creation, then the last claim.
      db.exec(`
        CREATE TABLE event_outbox (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL,
          event TEXT NOT NULL,
          created_at TEXT NOT NULL,
          due_at TEXT NOT NULL
        );
        CREATE INDEX idx_event_outbox_due ON event_outbox (due_at, id);
      `);
    },
  },
  {
    id: '0008_templates',
    up(db: SqliteDb): void {
      // Templates cascade with their session and are listed per session newest first. The unique index keeps names
      // unique per session; `name` leads it so a violation reports `templates.name`, which the store turns into
      // TEMPLATE_NAME_TAKEN (a lookup by session and name uses it just as well).
      db.exec(`
        CREATE TABLE templates (
          id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          body TEXT NOT NULL,
          header TEXT,
          footer TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE UNIQUE INDEX idx_templates_name ON templates (name, session_id);
        CREATE INDEX idx_templates_session ON templates (session_id, created_at DESC, id DESC);
      `);
    },
  },
  {
    id: '0009_send_idempotency_keys',
    up(db: SqliteDb): void {
      // The Idempotency-Key of a single send, unique per session; the cascade removes a session's keys with its
      // row. Claims sweep expired keys through the `created_at` index, so the table holds about a day of keys.
      db.exec(`
        CREATE TABLE send_idempotency_keys (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          idempotency_key TEXT NOT NULL,
          request_hash TEXT NOT NULL,
          message_id TEXT NOT NULL,
          created_at TEXT NOT NULL,
          PRIMARY KEY (session_id, idempotency_key)
        );
        CREATE INDEX idx_send_idempotency_keys_created ON send_idempotency_keys (created_at);
      `);
    },
  },
  ...MESSAGING_MIGRATIONS,
  ...STATS_MIGRATIONS,
  ...OPERATIONS_MIGRATIONS,
];
