import { z } from 'zod';
import type { Env } from '#shared/config/env.js';
import type { WebhookRules } from '#shared/use-cases/webhooks/manage-webhooks.js';

/** `{sessionId}` of the session's webhook routes (scope-checked by the HTTP stack before the route runs). */
export const WebhookSessionParams = z.strictObject({
  sessionId: z.uuid({ message: 'must be a session id (uuid)' }),
});

/** `{sessionId}` and the webhook's `{id}`. */
export const WebhookParams = WebhookSessionParams.extend({
  id: z.uuid({ message: 'must be a webhook id (uuid)' }),
});

/** The registration rules the env sets: the SSRF allow-list and the per-session cap. */
export const webhookRules = (env: Env): WebhookRules => ({
  allowedHosts: env.SSRF_ALLOWED_HOSTS,
  maxPerSession: env.WEBHOOK_MAX_PER_SESSION,
});
