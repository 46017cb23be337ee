/**
 * Env of what the gateway keeps on disk: the data folder and the files in it (names are resolved against
 * DATA_DIR by loadEnv), where Baileys' credentials live, and how long the audit log is kept.
 */
import { z } from 'zod';
import { limit, optionalChoice, optionalString, retentionDays, text } from './fields.js';

export const StorageEnv = z.object({
  DATA_DIR: text('./data'),
  MAIN_DATABASE_NAME: optionalString,
  DATABASE_NAME: optionalString,
  AUTH_DIR: optionalString,
  /** Where Baileys keeps linked-device credentials and Signal keys: files under AUTH_DIR, or DynamoDB. */
  AUTH_STATE_STORE: optionalChoice(['file', 'dynamodb']),
  AUDIT_RETENTION_DAYS: retentionDays(90),
  /**
   * Boot: how many times the stores are opened and pinged before the process gives up (spec Limits: 10 attempts,
   * 3000 ms apart), so a database that comes up after the gateway (a container started alongside) is waited for.
   */
  DATA_STORE_CONNECT_ATTEMPTS: limit(10),
  DATA_STORE_CONNECT_INTERVAL_MS: limit(3_000),
});
