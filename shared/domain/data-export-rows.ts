/**
 * Row schemas of the export document's tables whose port records are plain interfaces (chats, identity aliases,
 * status updates, the run-time settings): the same fields, checked by the import. A chat row and an alias row carry
 * their session's id, which their ports keep beside the record.
 */
import { z } from 'zod';
import { RuntimeSettingOverrides } from '#shared/config/runtime-settings.js';
import { ChatLastMessage, type ChatRecord } from './chat.js';
import { IsoTimestamp } from './common.js';
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
