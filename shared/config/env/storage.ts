/**
 * Env of what the gateway keeps on disk: the data folder and the files in it (names are resolved against
 * DATA_DIR by loadEnv), where Baileys' credentials live, and how long the audit log is kept.
 */
import { z } from 'zod';
import { optionalChoice, optionalString, retentionDays, text } from './fields.js';

export const StorageEnv = z.object({
  DATA_DIR: text('./data'),
  MAIN_DATABASE_NAME: optionalString,
  DATABASE_NAME: optionalString,
  AUTH_DIR: optionalString,
  /** Where Baileys keeps linked-device credentials and Signal keys: files under AUTH_DIR, or DynamoDB. */
  AUTH_STATE_STORE: optionalChoice(['file', 'dynamodb']),
  AUDIT_RETENTION_DAYS: retentionDays(90),
});
