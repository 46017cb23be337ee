/**
 * Webhooks in DynamoDB: one partition per session (DynamoDbScopedItems: capped create, consistent per-session
 * reads), and gsi1 (`WEBHOOKS`, sk `<createdAt>#<id>`) for the list across every session. A scoped list instead
 * reads the scope's partitions, which is consistent and touches nothing else.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { patchFields } from '#shared/adapters/patch-support.js';
import type { Page } from '#shared/domain/common.js';
import { type Webhook, WebhookEventName } from '#shared/domain/webhook.js';
import { WebhookFilters } from '#shared/domain/webhook-filters.js';
import {
  type PerSessionCap,
  WEBHOOK_FIELDS,
  WEBHOOK_PATCH_FIELDS,
  type WebhookListFilter,
  type WebhookPatch,
  type WebhookStore,
  webhookLimitReached,
} from '#shared/ports/webhook-store.port.js';
import { DynamoDbScopedItems } from './dynamodb-scoped-items.js';
import { guard, type Item, isConditionFailed, queryOffset } from './dynamodb-support.js';

const STORE = 'Data store';
const ALL_WEBHOOKS = 'WEBHOOKS';

/** The webhook fields of an item; lists and maps that do not hold what they should read as empty or null. */
function toWebhook(item: Item): Webhook {
  const webhook: Record<string, unknown> = {};
  for (const field of WEBHOOK_FIELDS) webhook[field] = item[field] ?? null;
  const events = Array.isArray(item.events) ? item.events : [];
  // Unknown or corrupt events read as none (nothing delivered) rather than as every event.
  webhook.events = events.filter((event) => WebhookEventName.safeParse(event).success);
  const headers: Record<string, string> = {};
  if (typeof item.headers === 'object' && item.headers !== null && !Array.isArray(item.headers)) {
    for (const [name, value] of Object.entries(item.headers))
      if (typeof value === 'string') headers[name] = value;
  }
  webhook.headers = headers;
  const filters = WebhookFilters.safeParse(item.filters);
  webhook.filters = filters.success ? filters.data : null;
  return webhook as Webhook;
}

/** Newest first: createdAt, then id, both descending. */
function newestFirst(a: Webhook, b: Webhook): number {
  return b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id);
}

/** WebhookStore on the data table. */
export class DynamoDbWebhookStore implements WebhookStore {
  private readonly items: DynamoDbScopedItems<Webhook>;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {
    this.items = new DynamoDbScopedItems(doc, table, {
      family: 'WEBHOOKS',
      kind: 'WEBHOOK',
      what: 'webhook',
      fromItem: toWebhook,
      indexAttributes: (webhook) => ({ gsi1pk: ALL_WEBHOOKS, gsi1sk: `${webhook.createdAt}#${webhook.id}` }),
      limitReached: webhookLimitReached,
    });
  }

  create(webhook: Webhook, cap: PerSessionCap): Promise<void> {
    return guard(STORE, () => this.items.create(webhook, cap));
  }

  findById(sessionId: string, id: string): Promise<Webhook | null> {
    return guard(STORE, () => this.items.find(sessionId, id));
  }

  listBySession(sessionId: string): Promise<Webhook[]> {
    return guard(STORE, async () => (await this.items.listBySession(sessionId)).sort(newestFirst));
  }

  list(filter: WebhookListFilter, page: Page): Promise<Webhook[]> {
    return guard(STORE, async () => {
      if (filter.sessionIds !== undefined) {
        const scoped = await Promise.all(
          [...new Set(filter.sessionIds)].map((sessionId) => this.items.listBySession(sessionId)),
        );
        return scoped
          .flat()
          .sort(newestFirst)
          .slice(page.offset, page.offset + page.limit);
      }
      const items = await queryOffset(
        this.doc,
        {
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': ALL_WEBHOOKS },
          ScanIndexForward: false,
        },
        page,
      );
      return items.map(toWebhook);
    });
  }

  listActive(sessionId: string): Promise<Webhook[]> {
    return guard(STORE, async () =>
      (await this.items.listBySession(sessionId)).filter((webhook) => webhook.active).sort(newestFirst),
    );
  }

  update(sessionId: string, id: string, patch: WebhookPatch): Promise<Webhook | null> {
    return guard(STORE, () => this.items.update(sessionId, id, patchFields(patch, WEBHOOK_PATCH_FIELDS)));
  }

  delete(sessionId: string, id: string): Promise<boolean> {
    return guard(STORE, () => this.items.delete(sessionId, id));
  }

  deleteBySession(sessionId: string): Promise<number> {
    return guard(STORE, () => this.items.deleteBySession(sessionId));
  }

  touchTriggered(sessionId: string, id: string, at: Date): Promise<void> {
    return guard(STORE, async () => {
      try {
        await this.doc.send(
          new UpdateCommand({
            TableName: this.table,
            Key: this.items.key(sessionId, id),
            UpdateExpression: 'SET #at = :at',
            // Deliveries finish out of order: an older one never moves the time back. A deleted webhook fails the
            // condition too, and is ignored.
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(#at) OR attribute_type(#at, :null) OR #at < :at)',
            ExpressionAttributeNames: { '#at': 'lastTriggeredAt' },
            ExpressionAttributeValues: { ':at': at.toISOString(), ':null': 'NULL' },
          }),
        );
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    });
  }
}
