/**
 * Coalesces API key usage (lastUsedAt, usageCount) in memory and writes it in one batch per interval, so an
 * authenticated request costs no store write.
 */
import type { ApiKeyStore, ApiKeyUsage } from '../ports/api-key-store.port.js';
import type { Logger } from '../ports/logger.port.js';

export class UsageTracker {
  private pending = new Map<string, ApiKeyUsage>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly logger: Logger,
    private readonly flushIntervalMs: number,
  ) {}

  record(keyId: string, at: Date): void {
    const usage = this.pending.get(keyId);
    const iso = at.toISOString();
    if (usage) {
      usage.count += 1;
      if (iso > usage.lastUsedAt) usage.lastUsedAt = iso;
    } else {
      this.pending.set(keyId, { id: keyId, count: 1, lastUsedAt: iso });
    }
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref?.();
    }
  }

  /** Writes the pending usage; failures are logged and the counts kept for the next flush. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.store.recordUsage(batch);
    } catch (error) {
      this.logger.warn({ err: error }, 'api key usage flush failed; will retry');
      for (const usage of batch) {
        const current = this.pending.get(usage.id);
        if (current) {
          current.count += usage.count;
          if (usage.lastUsedAt > current.lastUsedAt) current.lastUsedAt = usage.lastUsedAt;
        } else this.pending.set(usage.id, usage);
      }
    }
  }
}
