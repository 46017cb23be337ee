/**
 * The data export document (GET /api/infra/export-data, POST /api/infra/import-data): a versioned envelope and one
 * key per table, each an array of rows in the shape the ports return (the domain records), never SQLite columns or
 * DynamoDB items, so a document moves between deployment modes. What the spec hides stays out of it: webhook
 * secrets and headers, and the credentials in a session's proxy URL.
 */
import { z } from 'zod';
import { ApiKey } from './api-key.js';
import { AutomationRule } from './automation-rule.js';
import { IsoTimestamp } from './common.js';
import {
  ExportBatch,
  ExportChat,
  ExportIdempotencyKey,
  ExportIdentityAlias,
  ExportOutboxEntry,
  ExportSendPacing,
  ExportSettings,
  ExportStatus,
} from './data-export-rows.js';
import { Message } from './message.js';
import { Session } from './session.js';
import { Template } from './template.js';
import { DeliveryFailure, Webhook } from './webhook.js';

/** The document's `format`: what it is, whoever reads it. */
export const EXPORT_FORMAT = 'waygate-data-export';
/** The version of the document's shape; an import refuses any other (a later version adds, the reader must know). */
export const EXPORT_FORMAT_VERSION = 1;

/**
 * The tables a document holds, in the order they are written and replaced (sessions first: every other row names
 * its session). Messages come last, so a reader streaming the document meets the large table at its end; the
 * short-lived bookkeeping of sends and deliveries (batches, Idempotency-Keys, pacing, the event outbox) before them.
 */
export const EXPORT_TABLES = [
  'sessions',
  'apiKeys',
  'settings',
  'webhooks',
  'automationRules',
  'templates',
  'chats',
  'identities',
  'statuses',
  'deliveryFailures',
  'batches',
  'idempotencyKeys',
  'sendPacing',
  'outbox',
  'messages',
] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];

/**
 * The table of linked-device auth state: in a document only when the operator asked for it (includeCredentials),
 * so it is outside EXPORT_TABLES and the table registry (shared/use-cases/infra/export-credentials.ts).
 */
export const CREDENTIALS_TABLE = 'credentials';

/** The row schema of each table: the domain record its port stores. */
export const EXPORT_ROW_SCHEMAS = {
  sessions: Session,
  apiKeys: ApiKey,
  settings: ExportSettings,
  webhooks: Webhook,
  automationRules: AutomationRule,
  templates: Template,
  chats: ExportChat,
  identities: ExportIdentityAlias,
  statuses: ExportStatus,
  deliveryFailures: DeliveryFailure,
  batches: ExportBatch,
  idempotencyKeys: ExportIdempotencyKey,
  sendPacing: ExportSendPacing,
  outbox: ExportOutboxEntry,
  messages: Message,
} as const satisfies Record<ExportTable, z.ZodType>;

/**
 * The tables whose rows each name a session of the document (`sessionId`): the import refuses a row naming another.
 * Delivery failures are not among them: they outlive their session and webhook, as the operator's record.
 */
export const SESSION_SCOPED_TABLES: readonly ExportTable[] = EXPORT_TABLES.filter(
  (table) => !['sessions', 'apiKeys', 'settings', 'deliveryFailures'].includes(table),
);

/** A row of a table, as the document holds it. */
export type ExportRow<T extends ExportTable> = z.output<(typeof EXPORT_ROW_SCHEMAS)[T]>;

/** The envelope, every table a list of rows still to be validated row by row (the import names bad rows). */
export const ExportDocument = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    formatVersion: z.literal(EXPORT_FORMAT_VERSION),
    gatewayVersion: z.string().describe('The version of the gateway that wrote the document.'),
    mode: z.enum(['embedded', 'aws']).describe('The deployment mode that wrote the document.'),
    exportedAt: IsoTimestamp,
    tables: z.object({
      ...(Object.fromEntries(
        EXPORT_TABLES.map((table) => [table, z.array(z.unknown()).optional()]),
      ) as Record<ExportTable, z.ZodOptional<z.ZodArray<z.ZodUnknown>>>),
      [CREDENTIALS_TABLE]: z
        .array(z.unknown())
        .optional()
        .describe(
          "Only with includeCredentials: each session's linked-device auth state (the account's keys: a secret).",
        ),
    }),
  })
  .meta({ id: 'DataExport' });
export type ExportDocument = z.infer<typeof ExportDocument>;

/** A session's proxy URL without its user and password (the spec never lets them out). */
export function withoutProxyCredentials(proxyUrl: string | null): string | null {
  if (proxyUrl === null) return null;
  try {
    const url = new URL(proxyUrl);
    if (url.username === '' && url.password === '') return proxyUrl;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    // A stored value that is no URL carries nothing to strip that we could find; leave it out entirely.
    return null;
  }
}

/**
 * A row's identity within its table, for the import's duplicate check: `id` unless the table keys rows otherwise
 * (a chat, alias or status by its session and its own id; the settings are one row).
 */
export const EXPORT_ROW_KEYS: { [T in ExportTable]?: (row: ExportRow<T>) => string } = {
  settings: () => 'settings',
  chats: (chat) => `${chat.sessionId}\u0000${chat.id}`,
  identities: (alias) => `${alias.sessionId}\u0000${alias.lid}`,
  statuses: (status) => `${status.sessionId}\u0000${status.statusId}`,
  idempotencyKeys: (key) => `${key.sessionId}\u0000${key.key}`,
  sendPacing: (pacing) => pacing.sessionId,
};

/** How a row leaves in the document: the hidden fields blanked, the rest as stored. */
export const EXPORT_REDACTIONS: { [T in ExportTable]?: (row: ExportRow<T>) => ExportRow<T> } = {
  sessions: (session) => ({ ...session, proxyUrl: withoutProxyCredentials(session.proxyUrl) }),
  webhooks: (webhook) => ({ ...webhook, secret: null, headers: {} }),
};
