/**
 * Schema of the main store (API keys and the audit log). Timestamps are ISO-8601 UTC strings, so text order is
 * time order; list columns and metadata are JSON text.
 */
import type { Migration, SqliteDb } from './sqlite-database.js';

/** Ordered steps for the main store file; ids never change once released. */
export const MAIN_STORE_MIGRATIONS: Migration[] = [
  {
    id: '0001_api_keys',
    up(db: SqliteDb): void {
      db.exec(`
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          key_hash TEXT NOT NULL UNIQUE,
          key_prefix TEXT NOT NULL,
          role TEXT NOT NULL,
          allowed_ips TEXT,
          allowed_sessions TEXT,
          is_active INTEGER NOT NULL,
          expires_at TEXT,
          last_used_at TEXT,
          usage_count INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX idx_api_keys_created_at ON api_keys (created_at, id);
        CREATE INDEX idx_api_keys_role ON api_keys (role, is_active);
      `);
    },
  },
  {
    id: '0002_audit_logs',
    up(db: SqliteDb): void {
      // Each filter index carries created_at so the filtered query reads rows already in display order.
      db.exec(`
        CREATE TABLE audit_logs (
          id TEXT PRIMARY KEY,
          action TEXT NOT NULL,
          severity TEXT NOT NULL DEFAULT 'info',
          api_key_id TEXT,
          api_key_name TEXT,
          session_id TEXT,
          session_name TEXT,
          ip_address TEXT,
          user_agent TEXT,
          method TEXT,
          path TEXT,
          status_code INTEGER,
          metadata TEXT,
          error_message TEXT,
          created_at TEXT NOT NULL
        );
        CREATE INDEX idx_audit_logs_action ON audit_logs (action, created_at);
        CREATE INDEX idx_audit_logs_api_key_id ON audit_logs (api_key_id, created_at);
        CREATE INDEX idx_audit_logs_session_id ON audit_logs (session_id, created_at);
        CREATE INDEX idx_audit_logs_created_at ON audit_logs (created_at, id);
      `);
    },
  },
  {
    id: '0003_api_key_allowed_chats',
    up(db: SqliteDb): void {
      // Keys made before chat allowlists existed stay unrestricted (NULL).
      db.exec('ALTER TABLE api_keys ADD COLUMN allowed_chats TEXT');
    },
  },
];
