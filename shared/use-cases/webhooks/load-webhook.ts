import type { Webhook } from '#shared/domain/webhook.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { WebhookStore } from '#shared/ports/webhook-store.port.js';

/** The session's webhook, or 404: a webhook of another session is not found through this one. */
export async function loadWebhook(webhooks: WebhookStore, sessionId: string, id: string): Promise<Webhook> {
  const webhook = await webhooks.findById(sessionId, id);
  if (!webhook) throw webhookNotFound(id);
  return webhook;
}

/** The 404 of a webhook id the session does not have. */
export function webhookNotFound(id: string): NotFoundError {
  return new NotFoundError(`Webhook '${id}' not found`);
}
