/**
 * Message batches (spec "Message batch (stored job)"; openwa-facts §2 SendBulkMessageDto, §3 "Bulk batch"): the
 * stored job and the pure steps that move it on. A batch is sent one item after the other by the host that runs its
 * session; `currentIndex` is the next item to send, `results` holds one entry per item done so far, in order, and
 * `progress` always adds up to `total` (sent + failed + pending + cancelled).
 */
import { z } from 'zod';
import { ValidationError } from '#shared/errors/app-error.js';
import { IsoTimestamp } from './common.js';
import { ChatId } from './message.js';
import { TEXT_MAX, TextContent } from './outgoing-content.js';
import { MEDIA_ITEM_CONTENT, MediaUrl, mediaDraft, type SendDraft } from './send-requests.js';
import { TemplateVariablesInput } from './template.js';
import { renderTemplate } from './template-rendering.js';

export const BATCH_STATUSES = ['pending', 'processing', 'completed', 'cancelled', 'failed'] as const;
export const BatchStatus = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof BatchStatus>;

/** The statuses a batch never leaves. */
export const FINISHED_BATCH_STATUSES: ReadonlySet<BatchStatus> = new Set([
  'completed',
  'cancelled',
  'failed',
]);

/** Items one batch may hold (openwa: 100). */
export const BULK_MAX_ITEMS = 100;

/** A text item: `{{ name }}` placeholders of its text are filled from `variables` when it has them. */
export const TextBulkItem = z.strictObject({
  chatId: ChatId,
  type: z.literal('text'),
  content: z.strictObject({
    text: z.string().min(1).max(TEXT_MAX),
    mentions: TextContent.shape.mentions,
  }),
  variables: TemplateVariablesInput.optional(),
});

/**
 * A media item: its content is what the kind's single send takes without chat or quote (the file by `url`, or
 * base64 `data` with its `mimetype`; the kind's caption, filename, ptt, mentions). `{{ name }}` placeholders of the
 * caption and the url are filled from `variables`. The file is fetched or decoded when the item is sent.
 */
const mediaItem = <K extends MediaItemKind, C extends z.ZodType>(type: K, content: C) =>
  z.strictObject({
    chatId: ChatId,
    type: z.literal(type),
    content,
    variables: TemplateVariablesInput.optional(),
  });
type MediaItemKind = keyof typeof MEDIA_ITEM_CONTENT;

const BULK_ITEMS = [
  TextBulkItem,
  mediaItem('image', MEDIA_ITEM_CONTENT.image),
  mediaItem('video', MEDIA_ITEM_CONTENT.video),
  mediaItem('audio', MEDIA_ITEM_CONTENT.audio),
  mediaItem('document', MEDIA_ITEM_CONTENT.document),
] as const;
const BULK_ITEM_TYPES = BULK_ITEMS.map((item) => item.shape.type.value).join(', ');

/** One message of a batch, by `type` (openwa's item types). */
export const BulkItem = z.discriminatedUnion('type', BULK_ITEMS, {
  error: (issue) => (issue.code === 'invalid_union' ? `type must be one of ${BULK_ITEM_TYPES}` : undefined),
});
export type BulkItem = z.infer<typeof BulkItem>;

/**
 * What an item sends: its text, or its media with caption and url, with every `{{ name }}` filled from `variables`
 * when it has them (an item without variables goes out as written). Throws what rendering throws
 * (TEMPLATE_VARIABLES_MISSING, TEMPLATE_RENDER_TOO_LONG), and 400 when a filled-in url is no http(s) URL.
 */
export function bulkItemDraft(item: BulkItem): SendDraft {
  const fill = (text: string) =>
    item.variables === undefined
      ? text
      : renderTemplate({ header: null, body: text, footer: null }, item.variables);
  if (item.type === 'text') {
    const { text, mentions } = item.content;
    return { type: 'text', text: fill(text), ...(mentions ? { mentions } : {}) };
  }
  const caption = 'caption' in item.content ? item.content.caption : undefined;
  const url = 'url' in item.content ? item.content.url : undefined;
  const filled = {
    ...item.content,
    ...(caption === undefined ? {} : { caption: fill(caption) }),
    ...(url === undefined ? {} : { url: filledUrl(fill(url)) }),
  };
  return mediaDraft(item.type, { chatId: item.chatId, ...filled }).content;
}

function filledUrl(url: string): string {
  const parsed = MediaUrl.safeParse(url);
  if (!parsed.success) {
    throw new ValidationError('The url is not an http(s) URL once its variables are filled in', {
      details: { url: url.slice(0, 200) },
    });
  }
  return parsed.data;
}

/** How a batch paces and stops (openwa defaults: 3 s apart, randomized, going on after a failure). */
export const BatchOptions = z.strictObject({
  /** Milliseconds between two sends, 1000–60000. */
  delayBetweenMessages: z.number().int().min(1000).max(60_000).default(3000),
  /** Each wait is drawn between the delay and one and a half times it, so sends do not come at a fixed beat. */
  randomizeDelay: z.boolean().default(true),
  /** The first failed item fails the batch; the items after it are cancelled. */
  stopOnError: z.boolean().default(false),
});
export type BatchOptions = z.infer<typeof BatchOptions>;

export const BatchProgress = z.object({
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  cancelled: z.number().int(),
});
export type BatchProgress = z.infer<typeof BatchProgress>;

/** What became of one item: `messageId` is the network id of the message it sent. */
export const BatchItemResult = z.object({
  chatId: z.string(),
  status: z.enum(['sent', 'failed']),
  messageId: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  sentAt: IsoTimestamp.optional(),
});
export type BatchItemResult = z.infer<typeof BatchItemResult>;

/** The stored job (its table's columns are the snake_case of these names). */
export interface MessageBatch {
  id: string;
  /** The client's name for it (or `batch_<hex>`), unique per session. */
  batchId: string;
  sessionId: string;
  status: BatchStatus;
  messages: BulkItem[];
  options: BatchOptions;
  progress: BatchProgress;
  results: BatchItemResult[];
  /** The next item to send. */
  currentIndex: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** The state a conditional batch write expects to find: what the writer read. */
export interface BatchVersion {
  status: BatchStatus;
  currentIndex: number;
}

/** A batch's name, unique per session: it appears in the status URL, so only URL-safe characters. */
export const BatchIdField = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._~-]+$/, 'must be letters, digits, . _ ~ or -')
  .regex(/^(?!\.\.?$)/, 'must not be "." or ".."');

/**
 * The serialized items of one batch may take this many characters at most: a batch is stored whole (DynamoDB
 * splits it into parts), and 100 texts of 4096 characters fit with room for their variables.
 */
export const BULK_MAX_CHARS = 1_000_000;

/** POST …/messages/send-bulk (openwa SendBulkMessageDto). */
export const SendBulkBody = z.strictObject({
  batchId: BatchIdField.optional(),
  messages: z
    .array(BulkItem)
    .min(1)
    .max(BULK_MAX_ITEMS)
    .refine(
      (items) => JSON.stringify(items).length <= BULK_MAX_CHARS,
      `the messages may take ${BULK_MAX_CHARS} characters at most (texts, base64 files and variables together): send larger files by url`,
    ),
  options: BatchOptions.prefault({}),
});
export type SendBulkBody = z.infer<typeof SendBulkBody>;

/** The 202 of send-bulk: the batch is stored and queued. */
export const BulkAccepted = z
  .object({
    batchId: z.string(),
    status: BatchStatus,
    totalMessages: z.number().int(),
    /** Now plus one delay per item (openwa's estimate). */
    estimatedCompletionTime: IsoTimestamp,
    statusUrl: z.string(),
  })
  .meta({ id: 'BulkAccepted' });
export type BulkAccepted = z.infer<typeof BulkAccepted>;

/** GET …/messages/batch/{batchId}: where a batch stands. */
export const BatchStatusView = z
  .object({
    batchId: z.string(),
    status: BatchStatus,
    progress: BatchProgress,
    results: z.array(BatchItemResult),
    startedAt: IsoTimestamp.nullable(),
    completedAt: IsoTimestamp.nullable(),
  })
  .meta({ id: 'BatchStatus' });
export type BatchStatusView = z.infer<typeof BatchStatusView>;

export function batchStatusView(batch: MessageBatch): BatchStatusView {
  const { batchId, status, progress, results, startedAt, completedAt } = batch;
  return { batchId, status, progress, results, startedAt, completedAt };
}

/** POST …/messages/batch/{batchId}/cancel: the batch as the cancel left it. */
export const BatchCancelView = BatchStatusView.pick({ batchId: true, status: true, progress: true }).meta({
  id: 'BatchCancelled',
});
export type BatchCancelView = z.infer<typeof BatchCancelView>;

/** A new batch of `messages`, nothing sent yet. */
export function newBatch(fields: {
  id: string;
  batchId: string;
  sessionId: string;
  messages: BulkItem[];
  options: BatchOptions;
  now: string;
}): MessageBatch {
  const total = fields.messages.length;
  return {
    id: fields.id,
    batchId: fields.batchId,
    sessionId: fields.sessionId,
    status: 'pending',
    messages: fields.messages,
    options: fields.options,
    progress: { total, sent: 0, failed: 0, pending: total, cancelled: 0 },
    results: [],
    currentIndex: 0,
    createdAt: fields.now,
    updatedAt: fields.now,
    startedAt: null,
    completedAt: null,
  };
}

export function isBatchFinished(batch: { status: BatchStatus }): boolean {
  return FINISHED_BATCH_STATUSES.has(batch.status);
}

/** What a conditional write of this batch expects to find. */
export function versionOf(batch: MessageBatch): BatchVersion {
  return { status: batch.status, currentIndex: batch.currentIndex };
}

/** The batch as its first send begins (a resumed one keeps its first start time). */
export function startedBatch(batch: MessageBatch, now: string): MessageBatch {
  return { ...batch, status: 'processing', startedAt: batch.startedAt ?? now, updatedAt: now };
}

/** Ends a batch: `status`, with every item not yet sent counted as cancelled. */
export function endedBatch(batch: MessageBatch, status: BatchStatus, now: string): MessageBatch {
  const { pending, cancelled } = batch.progress;
  return {
    ...batch,
    status,
    progress: { ...batch.progress, pending: 0, cancelled: cancelled + pending },
    updatedAt: now,
    completedAt: now,
  };
}

/** A cancel: the items not sent yet (the one being sent included) are cancelled. */
export function cancelledBatch(batch: MessageBatch, now: string): MessageBatch {
  return endedBatch(batch, 'cancelled', now);
}

/**
 * Records the outcome of item `currentIndex`. A processing batch completes with its last item, or fails at a failed
 * one when `stopOnError` is set (the rest cancelled). A batch cancelled while the item was being sent stays
 * cancelled, and the item moves from cancelled to what really became of it.
 */
export function recordedBatch(batch: MessageBatch, result: BatchItemResult, now: string): MessageBatch {
  const progress = { ...batch.progress };
  if (result.status === 'sent') progress.sent += 1;
  else progress.failed += 1;
  if (batch.status === 'cancelled') progress.cancelled -= 1;
  else progress.pending -= 1;
  const next: MessageBatch = {
    ...batch,
    progress,
    results: [...batch.results, result],
    currentIndex: batch.currentIndex + 1,
    updatedAt: now,
  };
  if (batch.status !== 'processing') return next;
  if (result.status === 'failed' && batch.options.stopOnError) return endedBatch(next, 'failed', now);
  return next.currentIndex >= next.messages.length ? endedBatch(next, 'completed', now) : next;
}

/** How long to wait after an item before the next one; `random` is in [0, 1). */
export function delayAfterItem(options: BatchOptions, random: number): number {
  const base = options.delayBetweenMessages;
  return options.randomizeDelay ? Math.round(base * (1 + random / 2)) : base;
}
