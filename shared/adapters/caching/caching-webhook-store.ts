/**
 * A cache of each session's active webhooks in front of a WebhookStore: every event of a session asks for them, and
 * most sessions' webhooks rarely change. Writes made through this object drop the session's entry at once (the
 * embedded mode: the API and the host share it); `ttlMs` bounds how long another process's change (aws mode: the
 * API on Lambda, the dispatcher in a host) can go unseen. With API_THREAD the API's thread and the host's each have
 * one, and share their writes' invalidations (`shareInvalidations`). Everything else passes through.
 */

import type { ThreadBroadcast } from '#shared/adapters/thread-broadcast.js';
import type { Page } from '#shared/domain/common.js';
import type { Webhook } from '#shared/domain/webhook.js';
import type {
  PerSessionCap,
  WebhookListFilter,
  WebhookPatch,
  WebhookStore,
} from '#shared/ports/webhook-store.port.js';

export class CachingWebhookStore implements WebhookStore {
  private readonly active = new Map<string, { webhooks: readonly Webhook[]; expiresAt: number }>();
  private peers: ThreadBroadcast | null = null;

  constructor(
    private readonly inner: WebhookStore,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly maxSessions = 10_000,
  ) {}

  /** Drops what the other threads' caches change, and tells them what this one does. */
  shareInvalidations(peers: ThreadBroadcast): void {
    this.peers = peers;
    peers.subscribe((sessionId) => this.active.delete(sessionId));
  }

  async listActive(sessionId: string): Promise<Webhook[]> {
    const cached = this.active.get(sessionId);
    if (cached && cached.expiresAt > this.now()) return [...cached.webhooks];
    const webhooks = await this.inner.listActive(sessionId);
    this.active.delete(sessionId);
    this.active.set(sessionId, { webhooks, expiresAt: this.now() + this.ttlMs });
    if (this.active.size > this.maxSessions) {
      const oldest = this.active.keys().next().value;
      if (oldest !== undefined) this.active.delete(oldest);
    }
    return [...webhooks];
  }

  async create(webhook: Webhook, cap: PerSessionCap): Promise<void> {
    await this.inner.create(webhook, cap);
    this.changed(webhook.sessionId);
  }

  async update(sessionId: string, id: string, patch: WebhookPatch): Promise<Webhook | null> {
    const updated = await this.inner.update(sessionId, id, patch);
    this.changed(sessionId);
    return updated;
  }

  async delete(sessionId: string, id: string): Promise<boolean> {
    const deleted = await this.inner.delete(sessionId, id);
    this.changed(sessionId);
    return deleted;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    const deleted = await this.inner.deleteBySession(sessionId);
    this.changed(sessionId);
    return deleted;
  }

  findById(sessionId: string, id: string): Promise<Webhook | null> {
    return this.inner.findById(sessionId, id);
  }

  listBySession(sessionId: string): Promise<Webhook[]> {
    return this.inner.listBySession(sessionId);
  }

  list(filter: WebhookListFilter, page: Page): Promise<Webhook[]> {
    return this.inner.list(filter, page);
  }

  /** A delivery's timestamp: not a change of what the dispatcher reads, so the cache stays. */
  touchTriggered(sessionId: string, id: string, at: Date): Promise<void> {
    return this.inner.touchTriggered(sessionId, id, at);
  }

  private changed(sessionId: string): void {
    this.active.delete(sessionId);
    this.peers?.publish(sessionId);
  }
}
