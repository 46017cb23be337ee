/** In-memory WebhookStore: the unit-test fake, behaving like the SQLite adapter (copies, ordering, cap, errors). */
import type { Page } from '#shared/domain/common.js';
import type { Webhook } from '#shared/domain/webhook.js';
import {
  type PerSessionCap,
  WEBHOOK_PATCH_FIELDS,
  type WebhookListFilter,
  type WebhookPatch,
  type WebhookStore,
  webhookLimitReached,
} from '#shared/ports/webhook-store.port.js';
import { MemoryScopedRecords } from './memory-scoped-records.js';
import { jsonCopy, newestFirst } from './memory-support.js';

function copyWebhook(webhook: Webhook): Webhook {
  return {
    id: webhook.id,
    sessionId: webhook.sessionId,
    url: webhook.url,
    events: [...webhook.events],
    secret: webhook.secret,
    headers: { ...webhook.headers },
    filters: webhook.filters === null ? null : jsonCopy(webhook.filters),
    active: webhook.active,
    retryCount: webhook.retryCount,
    lastTriggeredAt: webhook.lastTriggeredAt,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

/** Webhooks in a Map; every method is atomic because nothing in it awaits. */
export class MemoryWebhookStore implements WebhookStore {
  private readonly records = new MemoryScopedRecords(copyWebhook, 'webhook');

  async create(webhook: Webhook, cap: PerSessionCap): Promise<void> {
    this.records.create(webhook, cap, webhookLimitReached);
  }

  async findById(sessionId: string, id: string): Promise<Webhook | null> {
    return this.records.find(sessionId, id);
  }

  async listBySession(sessionId: string): Promise<Webhook[]> {
    return this.records.ofSession(sessionId, newestFirst);
  }

  async list(filter: WebhookListFilter, page: Page): Promise<Webhook[]> {
    const { sessionIds } = filter;
    return this.records
      .all((webhook) => sessionIds === undefined || sessionIds.includes(webhook.sessionId), newestFirst)
      .slice(page.offset, page.offset + page.limit);
  }

  async listActive(sessionId: string): Promise<Webhook[]> {
    return this.records.ofSession(sessionId, newestFirst).filter((webhook) => webhook.active);
  }

  async update(sessionId: string, id: string, patch: WebhookPatch): Promise<Webhook | null> {
    return this.records.update(sessionId, id, patch, WEBHOOK_PATCH_FIELDS);
  }

  async delete(sessionId: string, id: string): Promise<boolean> {
    return this.records.delete(sessionId, id);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return this.records.deleteBySession(sessionId);
  }

  async touchTriggered(sessionId: string, id: string, at: Date): Promise<void> {
    const instant = at.toISOString();
    this.records.change(sessionId, id, (webhook) =>
      webhook.lastTriggeredAt !== null && webhook.lastTriggeredAt >= instant
        ? webhook
        : { ...webhook, lastTriggeredAt: instant },
    );
  }
}
