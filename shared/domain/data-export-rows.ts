/**
 * Row schemas of the export document's tables whose port records are plain interfaces (chats, identity aliases,
 * status updates, the run-time settings): the same fields, checked by the import. A chat row and an alias row carry
 * their session's id, which their ports keep beside the record.
 */
import { z } from 'zod';
import { RuntimeSettingOverrides } from '#shared/config/runtime-settings.js';
import type { StoredOutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { StoredSendKey } from '#shared/ports/send-idempotency-store.port.js';
import type { SendPacingRecord } from '#shared/ports/send-pacing-store.port.js';
import { ChatLastMessage, type ChatRecord } from './chat.js';
import { IsoTimestamp } from './common.js';
import { EVENT_DATA, type GatewayEvent, GatewayEventEnvelope } from './events.js';
import * as batch from './message-batch.js';
import { MediaMetadata } from './message-metadata.js';
import { type StatusRecord, StatusType } from './status-update.js';

/** A chat of a session (ChatStore). */
export const ExportChat = z.object({
  sessionId: z.string(),
  id: z.string(),
  name: z.string().nullable(),
  unreadCount: z.number().int().min(0),
  markedUnread: z.boolean(),
  timestamp: z.number().int().nullable(),
  lastMessage: ChatLastMessage.nullable(),
  archived: z.boolean(),
  pinnedAt: z.number().int().nullable(),
  muteUntil: z.number().int().nullable(),
}) satisfies z.ZodType<ChatRecord & { sessionId: string }>;

/** A LID ↔ phone alias of a session's contact (IdentityStore). */
export const ExportIdentityAlias = z.object({
  sessionId: z.string(),
  lid: z.string().endsWith('@lid'),
  phone: z.string(),
});

/** A status update (StatusStore). */
export const ExportStatus = z.object({
  sessionId: z.string(),
  statusId: z.string(),
  contactId: z.string(),
  pushName: z.string().nullable(),
  fromMe: z.boolean(),
  type: StatusType,
  text: z.string().nullable(),
  caption: z.string().nullable(),
  backgroundColor: z.string().nullable(),
  font: z.number().int().nullable(),
  media: MediaMetadata.nullable(),
  mediaPath: z.string().nullable(),
  recipients: z.array(z.string()),
  postedAt: z.number().int(),
  expiresAt: z.number().int(),
}) satisfies z.ZodType<StatusRecord>;

/** The run-time settings' overrides (SettingsStore): a table of one row, or none when never saved. */
export const ExportSettings = z.object({
  overrides: RuntimeSettingOverrides,
  updatedAt: IsoTimestamp,
});

/**
 * A session's linked-device auth state (AuthStateStore.readAll): only in an export asked for with
 * includeCredentials. The values are the text the engine stored (binary parts already base64 inside it), the same in
 * SQLite and DynamoDB, so the row moves between deployment modes as it is.
 */
export const ExportCredentials = z.object({
  sessionId: z.string(),
  credentials: z.string().nullable(),
  keys: z.array(z.object({ category: z.string().min(1), id: z.string().min(1), value: z.string() })),
});
export type ExportCredentials = z.infer<typeof ExportCredentials>;

/** A message batch of `send-bulk`, finished or not (BatchStore). */
export const ExportBatch = z.object({
  id: z.string(),
  batchId: z.string(),
  sessionId: z.string(),
  status: batch.BatchStatus,
  messages: z.array(batch.BulkItem),
  options: batch.BatchOptions,
  progress: batch.BatchProgress,
  results: z.array(batch.BatchItemResult),
  currentIndex: z.number().int().min(0),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  startedAt: IsoTimestamp.nullable(),
  completedAt: IsoTimestamp.nullable(),
}) satisfies z.ZodType<batch.MessageBatch>;

/** A stored event: the envelope, then its data by the event's own schema (as the outbox reads it back). */
const StoredEvent = GatewayEventEnvelope.transform((envelope, ctx): GatewayEvent => {
  const data = EVENT_DATA[envelope.event].safeParse(envelope.data);
  if (!data.success) {
    for (const issue of data.error.issues) ctx.addIssue({ ...issue, path: ['data', ...issue.path] });
    return z.NEVER;
  }
  return { ...envelope, data: data.data } as GatewayEvent;
});

/**
 * An event waiting in the outbox, with its claim state (EventOutbox.scan). `sessionId` is its event's session,
 * kept beside the entry as the stores keep it, so the import checks it like any session-scoped row.
 */
export const ExportOutboxEntry = z
  .object({
    sessionId: z.string(),
    id: z.string().min(1),
    event: StoredEvent,
    createdAt: IsoTimestamp,
    claimedAt: IsoTimestamp.nullable(),
  })
  .refine((row) => row.event.sessionId === row.sessionId, {
    path: ['event', 'sessionId'],
    message: "The event's session is not the row's sessionId",
  }) satisfies z.ZodType<StoredOutboxEntry & { sessionId: string }>;

/** A send's Idempotency-Key with its claim instant (SendIdempotencyStore); it expires 24 hours after it. */
export const ExportIdempotencyKey = z.object({
  sessionId: z.string(),
  key: z.string().min(1),
  requestHash: z.string(),
  messageId: z.string(),
  createdAt: IsoTimestamp,
}) satisfies z.ZodType<StoredSendKey>;

/** A session's send pacing counters and breaker (SendPacingStore). */
export const ExportSendPacing = z.object({
  sessionId: z.string(),
  day: z.iso.date().nullable(),
  sent: z.number().int().min(0),
  cold: z.number().int().min(0),
  failures: z.number().int().min(0),
  openUntil: z.number().int().nullable(),
}) satisfies z.ZodType<SendPacingRecord>;
