import type { Page } from '#shared/domain/common.js';
import { type Webhook, Webhook as WebhookSchema } from '#shared/domain/webhook.js';
import { ValidationError } from '#shared/errors/app-error.js';

/** Every field of a stored webhook, in schema order (adapters map rows and items field by field). */
export const WEBHOOK_FIELDS = WebhookSchema.keyof().options;

/** The fields of a webhook that an update may change (`lastTriggeredAt` has its own path, touchTriggered). */
export const WEBHOOK_PATCH_FIELDS = [
  'url',
  'events',
  'secret',
  'headers',
  'filters',
  'active',
  'retryCount',
  'updatedAt',
] as const satisfies readonly (keyof Webhook)[];

export type WebhookPatch = Partial<Pick<Webhook, (typeof WEBHOOK_PATCH_FIELDS)[number]>>;

export interface WebhookListFilter {
  /** Only webhooks of these sessions (a scoped key's allowedSessions). `undefined` = every session. */
  sessionIds?: readonly string[];
}

/** A per-session cap on creation; `maxPerSession` 0 means no cap. */
export interface PerSessionCap {
  maxPerSession: number;
}

/** The 400 every adapter raises when a session already holds `max` webhooks. */
export function webhookLimitReached(max: number): ValidationError {
  return new ValidationError(`A session may have at most ${max} webhooks`, {
    code: 'WEBHOOK_LIMIT',
    details: { maxPerSession: max },
  });
}

/**
 * Webhooks of the data store. Every read and write is scoped to the owning session, so an id of another session
 * is "not found" everywhere. Deleting a session deletes its webhooks (SQLite by cascade, the others through
 * deleteBySession).
 */
export interface WebhookStore {
  /**
   * Inserts a webhook unless its session already holds `cap.maxPerSession` (ValidationError WEBHOOK_LIMIT; the
   * count and the insert are one atomic step). A taken id raises ConflictError; an unknown session NotFoundError
   * where the store knows sessions (SQLite, DynamoDB).
   */
  create(webhook: Webhook, cap: PerSessionCap): Promise<void>;
  findById(sessionId: string, id: string): Promise<Webhook | null>;
  /** The session's webhooks, newest first (createdAt, then id). */
  listBySession(sessionId: string): Promise<Webhook[]>;
  /** Webhooks of every session in the filter, newest first (GET /api/webhooks). */
  list(filter: WebhookListFilter, page: Page): Promise<Webhook[]>;
  /**
   * The session's active webhooks, newest first: what the dispatcher fans an event out to (it filters by event
   * with `subscribesTo` and caches the answer per session).
   */
  listActive(sessionId: string): Promise<Webhook[]>;
  /** Applies the patch's listed fields; the webhook as stored afterwards, or null when it does not exist. */
  update(sessionId: string, id: string, patch: WebhookPatch): Promise<Webhook | null>;
  /** False when it did not exist. */
  delete(sessionId: string, id: string): Promise<boolean>;
  /** Deletes every webhook of a session (session delete); answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
  /**
   * Records a delivery at `at` in `lastTriggeredAt`, which only moves forward (deliveries finish out of order).
   * `updatedAt` stays: a delivery is not a change of the webhook. An unknown webhook is ignored (deleted mid-flight).
   */
  touchTriggered(sessionId: string, id: string, at: Date): Promise<void>;
}
