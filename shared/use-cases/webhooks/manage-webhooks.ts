/**
 * Webhook CRUD of one session (spec "Webhooks"): registration vets the URL with the SSRF guard and counts against
 * the per-session cap; reads and writes resolve the webhook inside the session the path names, so another session's
 * webhook id is "not found". Responses never carry the secret or the custom headers.
 */
import { randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.js';
import {
  type CreateWebhookBody,
  toWebhookResponse,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookResponse,
} from '#shared/domain/webhook.js';
import { vetUrl } from '#shared/security/ssrf-guard.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { loadWebhook, webhookNotFound } from './load-webhook.js';

/** What registration needs besides the stores: the guard's allow-list and the per-session cap (0 = none). */
export interface WebhookRules {
  /** SSRF_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
  /** WEBHOOK_MAX_PER_SESSION. */
  maxPerSession: number;
}

type WebhookDeps = Pick<CoreDeps, 'data' | 'audit' | 'clock'>;

/** The webhook's origin for the audit entry: the path and query may carry a receiver's token. */
function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * Registers a webhook (201): 404 for an unknown session, 400 URL_NOT_ALLOWED when the guard refuses the URL, 400
 * WEBHOOK_LIMIT when the session holds its maximum already; audited as `webhook_created`.
 */
export async function createWebhook(
  deps: WebhookDeps,
  rules: WebhookRules,
  caller: Caller,
  sessionId: string,
  body: CreateWebhookBody,
): Promise<WebhookResponse> {
  const session = await loadSession(deps.data.sessions, caller, sessionId);
  await vetUrl(body.url, { allowedHosts: rules.allowedHosts });
  const now = deps.clock.now().toISOString();
  const webhook: Webhook = {
    id: randomUUID(),
    sessionId,
    ...body,
    active: true,
    lastTriggeredAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.data.webhooks.create(webhook, { maxPerSession: rules.maxPerSession });
  await deps.audit.record(caller, {
    action: 'webhook_created',
    sessionId,
    sessionName: session.name,
    metadata: { webhookId: webhook.id, origin: originOf(webhook.url), events: webhook.events },
  });
  return toWebhookResponse(webhook);
}

/** The session's webhooks, newest first. */
export async function listSessionWebhooks(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
): Promise<WebhookResponse[]> {
  await loadSession(deps.data.sessions, caller, sessionId);
  return (await deps.data.webhooks.listBySession(sessionId)).map(toWebhookResponse);
}

/** One webhook of the session (404 when the session has none of that id). */
export async function getWebhook(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  sessionId: string,
  id: string,
): Promise<WebhookResponse> {
  await loadSession(deps.data.sessions, caller, sessionId);
  return toWebhookResponse(await loadWebhook(deps.data.webhooks, sessionId, id));
}

/**
 * Applies a partial update. A changed URL is vetted again (400 URL_NOT_ALLOWED); an unchanged one is not, so a
 * webhook registered before an allow-list change can still be edited.
 */
export async function updateWebhook(
  deps: Pick<CoreDeps, 'data' | 'clock'>,
  rules: Pick<WebhookRules, 'allowedHosts'>,
  caller: Caller,
  sessionId: string,
  id: string,
  body: UpdateWebhookBody,
): Promise<WebhookResponse> {
  await loadSession(deps.data.sessions, caller, sessionId);
  const current = await loadWebhook(deps.data.webhooks, sessionId, id);
  if (body.url !== undefined && body.url !== current.url) {
    await vetUrl(body.url, { allowedHosts: rules.allowedHosts });
  }
  const updated = await deps.data.webhooks.update(sessionId, id, {
    ...body,
    updatedAt: deps.clock.now().toISOString(),
  });
  // Deleted between the read and the write.
  if (!updated) throw webhookNotFound(id);
  return toWebhookResponse(updated);
}

/** Deletes a webhook (204; 404 when the session has none of that id); audited as `webhook_deleted`. */
export async function deleteWebhook(
  deps: WebhookDeps,
  caller: Caller,
  sessionId: string,
  id: string,
): Promise<void> {
  const session = await loadSession(deps.data.sessions, caller, sessionId);
  const webhook = await loadWebhook(deps.data.webhooks, sessionId, id);
  if (!(await deps.data.webhooks.delete(sessionId, id))) throw webhookNotFound(id);
  await deps.audit.record(caller, {
    action: 'webhook_deleted',
    sessionId,
    sessionName: session.name,
    metadata: { webhookId: id, origin: originOf(webhook.url) },
  });
}
