/** The lists across sessions: every webhook a key may see, and the abandoned deliveries (admin). */
import { type Caller, callerSessionScope } from '#shared/domain/caller.js';
import type { Page } from '#shared/domain/common.js';
import { type DeliveryFailure, toWebhookResponse, type WebhookResponse } from '#shared/domain/webhook.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

/** Webhooks of every session the caller may see (a scoped key: its allowed sessions), newest first. */
export async function listWebhooks(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  page: Page,
): Promise<WebhookResponse[]> {
  const scope = callerSessionScope(caller);
  const webhooks = await deps.data.webhooks.list(scope ? { sessionIds: scope } : {}, page);
  return webhooks.map(toWebhookResponse);
}

/**
 * Deliveries that exhausted their attempts or were never attempted, most recent first, optionally of one session.
 * The route takes unscoped admin keys only, so no scope applies; records outlive their webhook and session.
 */
export function listDeliveryFailures(
  deps: Pick<CoreDeps, 'data'>,
  query: Page & { sessionId?: string | undefined },
): Promise<DeliveryFailure[]> {
  const { sessionId, ...page } = query;
  return deps.data.deliveryFailures.list(sessionId === undefined ? {} : { sessionId }, page);
}
