/**
 * Coalesces API key usage (lastUsedAt, usageCount) in memory and writes it in one batch per interval, so an
 * authenticated request costs no store write.
 */
import type { ApiKeyStore, ApiKeyUsage } from '#shared/ports/api-key-store.port.js';
import type { Logger } from '#shared/ports/logger.port.js';

export class UsageTracker {
  /** Per key: uses since the last flush and the newest use (epoch ms; formatted only when written). */
  private pending = new Map<string, { count: number; lastUsedMs: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ApiKeyStore,
    private readonly logger: Logger,
    private readonly flushIntervalMs: number,
  ) {}

  record(keyId: string, at: Date): void {
    const usage = this.pending.get(keyId);
    const ms = at.getTime();
    if (usage) {
      usage.count += 1;
      if (ms > usage.lastUsedMs) usage.lastUsedMs = ms;
    } else {
      this.pending.set(keyId, { count: 1, lastUsedMs: ms });
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
    const taken = this.pending;
    this.pending = new Map();
    const batch: ApiKeyUsage[] = [...taken].map(([id, usage]) => ({
      id,
      count: usage.count,
      lastUsedAt: new Date(usage.lastUsedMs).toISOString(),
    }));
    try {
      await this.store.recordUsage(batch);
    } catch (error) {
      this.logger.warn({ err: error }, 'api key usage flush failed; will retry');
      for (const [id, usage] of taken) {
        const current = this.pending.get(id);
        if (current) {
          current.count += usage.count;
          current.lastUsedMs = Math.max(current.lastUsedMs, usage.lastUsedMs);
        } else this.pending.set(id, usage);
      }
    }
  }
}
