/**
 * Writes audit entries to the store, never losing one silently. Group commit: entries written in the same turn of
 * the event loop go out in one `append`, one write at a time, so a request that awaits its entry pays about one
 * store round trip and concurrent requests share it. A failed batch is retried a few times with backoff; what still
 * fails waits in a bounded retry buffer, retried in the background (backoff up to a minute) and by every flush. An
 * entry evicted from a full buffer (high-volume actions first) or still unwritten at close is counted in
 * waygate_audit_entries_dropped_total{action} and logged whole, so the trail survives at least in the logs.
 * Retrying is safe: append skips ids already stored, so a write that failed after landing is not stored twice.
 */
import { type AuditEntry, isSecurityAuditAction } from '#shared/domain/audit.js';
import type { AuditMetrics } from '#shared/observability/metrics.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import type { Logger } from '#shared/ports/logger.port.js';

export interface AuditWriterOptions {
  /** Attempts at a fresh batch before its entries move to the retry buffer and its awaiting callers go on. */
  attempts?: number;
  /** Wait before the second attempt; doubles with each further one. */
  retryDelayMs?: number;
  /** Entries the retry buffer keeps; beyond it the oldest high-volume entries are dropped first. */
  maxRetryBuffered?: number;
  /** First background retry of the buffer; doubles up to maxBackgroundDelayMs while the store keeps failing. */
  backgroundDelayMs?: number;
  maxBackgroundDelayMs?: number;
  /** Entries per append. */
  batchSize?: number;
  /** How long a background entry (nobody awaits it) may wait for others to share its write. */
  lingerMs?: number;
}

const DEFAULTS: Required<AuditWriterOptions> = {
  attempts: 3,
  retryDelayMs: 50,
  maxRetryBuffered: 10_000,
  backgroundDelayMs: 1_000,
  maxBackgroundDelayMs: 60_000,
  batchSize: 500,
  lingerMs: 20,
};

interface Pending {
  entry: AuditEntry;
  settle: () => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class AuditWriter {
  private queue: Pending[] = [];
  private buffered: AuditEntry[] = [];
  private drainScheduled = false;
  private lingerTimer: NodeJS.Timeout | null = null;
  /** Every store write runs in this chain, one at a time: the retry buffer is only touched inside it. */
  private tail: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelayMs: number;
  private closed = false;
  private readonly options: Required<AuditWriterOptions>;

  constructor(
    private readonly store: AuditLogStore,
    private readonly logger: Logger,
    private readonly metrics: AuditMetrics,
    options: AuditWriterOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.retryDelayMs = this.options.backgroundDelayMs;
  }

  /**
   * Queues an entry for the next group write. Resolves once it is stored, or once its attempts failed and it waits
   * in the retry buffer (or was counted as dropped). Never rejects. A `background` entry (one per message sent,
   * say, that no request waits for) may wait up to `lingerMs` so that a steady stream of them shares one write
   * instead of paying one each; any other entry, or a full batch, writes everything queued in this turn.
   */
  write(entry: AuditEntry, options: { background?: boolean } = {}): Promise<void> {
    return new Promise((settle) => {
      this.queue.push({ entry, settle });
      if (this.drainScheduled) return;
      if (options.background && this.queue.length < this.options.batchSize) {
        this.lingerTimer ??= setTimeout(() => this.scheduleDrain(), this.options.lingerMs);
        return;
      }
      this.scheduleDrain();
    });
  }

  private scheduleDrain(): void {
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    this.stopLingering();
    setImmediate(() => {
      this.drainScheduled = false;
      void this.serially(() => this.drain());
    });
  }

  private stopLingering(): void {
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
  }

  /** Writes everything queued, then tries the retry buffer once. Resolves when done; never rejects. */
  flush(): Promise<void> {
    this.stopLingering();
    return this.serially(async () => {
      await this.drain();
      await this.writeBuffered(1);
    });
  }

  /** Shutdown: a final flush with full attempts; whatever the store still refuses is counted and logged. */
  close(): Promise<void> {
    this.closed = true;
    this.clearRetryTimer();
    this.stopLingering();
    return this.serially(async () => {
      await this.drain();
      await this.writeBuffered(this.options.attempts);
      this.drop(this.buffered.splice(0), 'the store still fails at shutdown');
    });
  }

  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.tail
      .then(task)
      .catch((error: unknown) => this.logger.error({ err: error }, 'audit writer task failed'));
    this.tail = run;
    return run;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.batchSize);
      const entries = batch.map((pending) => pending.entry);
      if (await this.attempt(entries, this.options.attempts)) {
        // The store answers again: what waits in the retry buffer need not wait for its backoff.
        if (this.buffered.length > 0) this.scheduleRetry(0);
      } else {
        this.keep(entries);
      }
      for (const pending of batch) pending.settle();
    }
  }

  /** Writes the retry buffer batch by batch; stops at the first batch the store still refuses. */
  private async writeBuffered(attempts: number): Promise<void> {
    while (this.buffered.length > 0) {
      const batch = this.buffered.splice(0, this.options.batchSize);
      if (!(await this.attempt(batch, attempts))) {
        // Nothing else touches the buffer meanwhile (one task at a time), so it stays within its cap.
        this.buffered.unshift(...batch);
        break;
      }
    }
    this.metrics.auditRetryBuffered.set(this.buffered.length);
  }

  private async attempt(entries: readonly AuditEntry[], attempts: number): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.store.append(entries);
        return true;
      } catch (error) {
        this.metrics.auditWriteFailures.inc();
        this.logger.warn({ err: error, entries: entries.length, attempt }, 'audit write failed');
        if (attempt >= attempts) return false;
        await sleep(this.options.retryDelayMs * 2 ** (attempt - 1));
      }
    }
  }

  private keep(entries: readonly AuditEntry[]): void {
    if (this.closed) {
      this.drop(entries, 'the store fails after shutdown began');
      return;
    }
    this.buffered.push(...entries);
    const excess = this.buffered.length - this.options.maxRetryBuffered;
    if (excess > 0) this.drop(this.evict(excess), 'the audit retry buffer is full');
    this.metrics.auditRetryBuffered.set(this.buffered.length);
    if (!this.retryTimer) this.scheduleRetry(this.retryDelayMs);
  }

  /** Takes `count` entries out of the retry buffer: the oldest high-volume ones first, then the oldest. */
  private evict(count: number): AuditEntry[] {
    const evicted: AuditEntry[] = [];
    const kept: AuditEntry[] = [];
    for (const entry of this.buffered) {
      if (evicted.length < count && !isSecurityAuditAction(entry.action)) evicted.push(entry);
      else kept.push(entry);
    }
    evicted.push(...kept.splice(0, count - evicted.length));
    this.buffered = kept;
    return evicted;
  }

  private drop(entries: readonly AuditEntry[], reason: string): void {
    if (entries.length === 0) return;
    for (const entry of entries) this.metrics.auditEntriesDropped.inc({ action: entry.action });
    this.metrics.auditRetryBuffered.set(this.buffered.length);
    this.logger.error({ reason, dropped: entries.length, entries }, 'audit entries dropped unwritten');
  }

  private scheduleRetry(delayMs: number): void {
    if (this.closed) return;
    this.clearRetryTimer();
    if (delayMs === 0) this.retryDelayMs = this.options.backgroundDelayMs;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.serially(async () => {
        await this.writeBuffered(1);
        if (this.buffered.length === 0) {
          this.retryDelayMs = this.options.backgroundDelayMs;
          return;
        }
        this.retryDelayMs = Math.min(this.retryDelayMs * 2, this.options.maxBackgroundDelayMs);
        if (!this.retryTimer) this.scheduleRetry(this.retryDelayMs);
      });
    }, delayMs);
    // Background retries never keep the process alive; shutdown flushes explicitly.
    this.retryTimer.unref();
  }

  private clearRetryTimer(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}
