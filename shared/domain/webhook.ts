/**
 * Webhooks: the stored record, the request bodies (openwa-facts §2 "Webhooks"), the response shape without the
 * write-only secret and headers (§3 "Webhook"), and the delivery-failure record (§3).
 */
import { z } from 'zod';
import { HTTP_URL_START, IsoTimestamp, Uuid } from './common.js';
import { EVENT_NAMES } from './events.js';
import { WebhookFilters, WebhookFiltersInput } from './webhook-filters.js';

/** What a webhook's `events` may hold: an event name, or `*` for every event. */
export const WebhookEventName = z.enum([...EVENT_NAMES, '*']);
export type WebhookEventName = z.infer<typeof WebhookEventName>;

export const DEFAULT_WEBHOOK_EVENTS: WebhookEventName[] = ['message.received'];
export const DEFAULT_WEBHOOK_RETRY_COUNT = 3;
export const MAX_WEBHOOK_RETRY_COUNT = 5;
export const MAX_WEBHOOK_HEADERS = 50;

/** The stored webhook. `secret` and `headers` never leave the gateway in responses. */
export const Webhook = z.object({
  id: Uuid,
  sessionId: Uuid,
  url: z.string(),
  events: z.array(WebhookEventName),
  secret: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  filters: WebhookFilters.nullable(),
  active: z.boolean(),
  retryCount: z.number().int().min(0),
  lastTriggeredAt: IsoTimestamp.nullable(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Webhook = z.infer<typeof Webhook>;

/** True when the webhook is active and subscribes to `event` by name or through `*`. */
export function subscribesTo(
  webhook: { readonly active: boolean; readonly events: readonly string[] },
  event: string,
): boolean {
  return webhook.active && webhook.events.some((name) => name === '*' || name === event);
}

/** Length in code points, as the reference counts it (a string's `length` counts UTF-16 units). */
function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export const MAX_WEBHOOK_URL = 2048;

/**
 * An absolute http(s) URL of at most 2048 code points, without `user:pass@` (credentials in a URL end up in logs
 * and delivery records). Whether its host may be reached is the request-forgery guard's decision, not this one's.
 * The two patterns are what the OpenAPI document can state of it (with `format: uri` and `maxLength`, which JSON
 * Schema counts in code points too); parsing it as a URL is the rest of the check.
 */
export const WebhookUrl = z
  .string()
  .regex(HTTP_URL_START, 'must be an absolute http or https URL')
  // No `@` between `//` and the path: the authority holds no user or password (the URL parser sees no more of an
  // authority than this does, so it finds none either).
  .regex(/^(?![^/]*\/\/[^/?#]*@)/, 'must not contain credentials (user:password@)')
  .superRefine((value, ctx) => {
    if (codePoints(value) > MAX_WEBHOOK_URL) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_WEBHOOK_URL} characters` });
    } else if (HTTP_URL_START.test(value) && !URL.canParse(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http or https URL' });
    }
  })
  .meta({ format: 'uri', maxLength: MAX_WEBHOOK_URL });

/** At least one event, each a known name or `*`, none repeated. */
const WebhookEvents = z
  .array(WebhookEventName)
  .min(1)
  .refine((events) => new Set(events).size === events.length, 'must not repeat an event')
  // zod cannot state uniqueness in JSON Schema; the refinement above checks what this says.
  .meta({ uniqueItems: true });

export const MIN_WEBHOOK_SECRET = 16;
export const MAX_WEBHOOK_SECRET = 255;

/**
 * 16–255 code points: shorter secrets make the signature guessable. Counted as JSON Schema's minLength and
 * maxLength count (code points), which zod's `.min()` does not (UTF-16 units), so the bounds are stated as metadata.
 */
export const WebhookSecret = z
  .string()
  .refine(
    (value) => codePoints(value) >= MIN_WEBHOOK_SECRET,
    `must be at least ${MIN_WEBHOOK_SECRET} characters`,
  )
  .refine(
    (value) => codePoints(value) <= MAX_WEBHOOK_SECRET,
    `must be at most ${MAX_WEBHOOK_SECRET} characters`,
  )
  .meta({ minLength: MIN_WEBHOOK_SECRET, maxLength: MAX_WEBHOOK_SECRET });

const HEADER_NAME = /^[A-Za-z0-9-]+$/;
/**
 * Printable Latin-1 only: HTTP header values are bytes, so anything above U+00FF cannot be sent as written, and
 * control characters (C0, DEL) would let a value split or forge header lines.
 */
const HEADER_VALUE = /^[\u0020-\u007e\u0080-\u00ff]*$/;

/**
 * Custom delivery headers: at most 50, token names unique regardless of case, values ≤ 1024 Latin-1 characters.
 * The OpenAPI document states the count (`maxProperties`); that two names differ only in case JSON Schema cannot
 * state.
 */
export const WebhookHeaders = z
  .record(
    z.string().regex(HEADER_NAME, 'header names may hold letters, digits and hyphens only'),
    z
      .string()
      .max(1024)
      .regex(HEADER_VALUE, 'header values must be printable Latin-1 without control characters'),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_WEBHOOK_HEADERS) {
      ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_WEBHOOK_HEADERS} headers` });
    }
    const seen = new Set<string>();
    for (const name of names) {
      const folded = name.toLowerCase();
      // HTTP header names are case-insensitive: two spellings of one name would both be sent, or one lost.
      if (seen.has(folded)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'repeats a header name (names ignore case)' });
      }
      seen.add(folded);
    }
  })
  .meta({ maxProperties: MAX_WEBHOOK_HEADERS });

const RetryCount = z.number().int().min(0).max(MAX_WEBHOOK_RETRY_COUNT);

export const CreateWebhookBody = z.strictObject({
  url: WebhookUrl,
  events: WebhookEvents.default(DEFAULT_WEBHOOK_EVENTS),
  secret: WebhookSecret.nullable().default(null),
  headers: WebhookHeaders.default({}),
  filters: WebhookFiltersInput.default(null),
  retryCount: RetryCount.default(DEFAULT_WEBHOOK_RETRY_COUNT),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/**
 * Partial update. An explicit null is refused for url, events, headers, active and retryCount (they have no
 * "unset"); `secret` null or `""` removes the secret (deliveries go unsigned), `filters` null or no conditions
 * removes the filter.
 */
export const UpdateWebhookBody = z.strictObject({
  url: WebhookUrl.optional(),
  events: WebhookEvents.optional(),
  secret: z
    .union([z.literal(''), WebhookSecret])
    .nullable()
    .optional()
    .transform((secret) => (secret === '' ? null : secret)),
  headers: WebhookHeaders.optional(),
  filters: WebhookFiltersInput.optional(),
  active: z.boolean().optional(),
  retryCount: RetryCount.optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookResponse = z
  .object({
    id: Uuid,
    sessionId: Uuid,
    url: z.string(),
    events: z.array(WebhookEventName),
    filters: WebhookFilters.nullable(),
    active: z.boolean(),
    retryCount: z.number().int(),
    lastTriggeredAt: IsoTimestamp.nullable(),
    createdAt: IsoTimestamp,
    updatedAt: IsoTimestamp,
  })
  .meta({ id: 'Webhook' });
export type WebhookResponse = z.infer<typeof WebhookResponse>;

/** The public shape: the secret and the custom headers are write-only. */
export function toWebhookResponse(webhook: Webhook): WebhookResponse {
  return {
    id: webhook.id,
    sessionId: webhook.sessionId,
    url: webhook.url,
    events: webhook.events,
    filters: webhook.filters,
    active: webhook.active,
    retryCount: webhook.retryCount,
    lastTriggeredAt: webhook.lastTriggeredAt,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

/**
 * A delivery that exhausted its attempts, or was never attempted (`attempts` 0: payload over the cap,
 * unserialisable, waiter-queue overflow, shutdown). Stored and returned as is; the payload is never kept.
 */
export const DeliveryFailure = z
  .object({
    id: Uuid,
    webhookId: Uuid,
    sessionId: Uuid,
    event: z.string(),
    url: z.string(),
    idempotencyKey: z.string(),
    deliveryId: z.string().nullable(),
    attempts: z.number().int().min(0),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string(),
    createdAt: IsoTimestamp,
  })
  .meta({ id: 'WebhookDeliveryFailure' });
export type DeliveryFailure = z.infer<typeof DeliveryFailure>;

/**
 * The answer of a test delivery: `statusCode` when the receiver answered (`success` = a 2xx), `error` when no answer
 * came (refused by the guard, DNS, timeout, network). Always a 200: the test itself worked.
 */
export const WebhookTestResult = z
  .object({
    success: z.boolean(),
    statusCode: z.number().int().optional(),
    error: z.string().optional(),
  })
  .meta({ id: 'WebhookTestResult' });
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;
