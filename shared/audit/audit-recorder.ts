/**
 * Writes audit entries without slowing or failing the request that produced them: entries are buffered and
 * flushed in batches shortly after; a failed flush is logged and dropped, never thrown. Applies the spec's
 * sampling (rate_limit_exceeded once per subject and kind per minute, send_pacing_blocked once per session per
 * minute; everything else, send_breaker_tripped included, is never sampled). api_key_used, which the spec asks
 * for on successful use, is written once per key per minute: a row per request would turn the audit log into an
 * access log and cost a write per request.
 */
import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditEntry, NewAuditEntry } from '../domain/audit.js';
import type { Caller } from '../domain/caller.js';
import type { AuditLogStore } from '../ports/audit-log-store.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { Logger } from '../ports/logger.port.js';

const SAMPLE_WINDOW_MS = 60_000;
const MAX_SAMPLE_KEYS = 10_000;

function sampleKeyOf(entry: NewAuditEntry): string | null {
  const meta = entry.metadata ?? {};
  const sampled: Partial<Record<AuditAction, () => string>> = {
    rate_limit_exceeded: () =>
      `rl:${String(meta.subject ?? entry.ipAddress ?? '')}:${String(meta.kind ?? '')}`,
    send_pacing_blocked: () => `sp:${entry.sessionId ?? ''}`,
    api_key_used: () => `ku:${entry.apiKeyId ?? ''}`,
  };
  return sampled[entry.action]?.() ?? null;
}

const truncate = (value: string | null | undefined, max: number): string | null =>
  value == null ? null : value.length > max ? value.slice(0, max) : value;

export interface AuditRecorderOptions {
  flushDelayMs?: number;
  maxBuffered?: number;
}

export class AuditRecorder {
  private buffer: AuditEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly lastSampled = new Map<string, number>();
  private readonly flushDelayMs: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly store: AuditLogStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: AuditRecorderOptions = {},
  ) {
    this.flushDelayMs = options.flushDelayMs ?? 25;
    this.maxBuffered = options.maxBuffered ?? 10_000;
  }

  /** Queues an entry stamped with the caller's key, IP, request and time. Never throws. */
  record(caller: Caller, entry: NewAuditEntry): void {
    const now = this.clock.now();
    const sampleKey = sampleKeyOf(entry);
    if (sampleKey !== null && !this.admitSample(sampleKey, now.getTime())) return;
    if (this.buffer.length >= this.maxBuffered) {
      this.logger.warn({ action: entry.action }, 'audit buffer full; entry dropped');
      return;
    }
    const metadata = caller.requestId
      ? { requestId: caller.requestId, ...entry.metadata }
      : (entry.metadata ?? null);
    this.buffer.push({
      id: randomUUID(),
      action: entry.action,
      severity: entry.severity ?? 'info',
      apiKeyId: entry.apiKeyId ?? caller.key?.id ?? null,
      apiKeyName: truncate(entry.apiKeyName ?? caller.key?.name, 100),
      sessionId: entry.sessionId ?? null,
      sessionName: truncate(entry.sessionName, 100),
      ipAddress: truncate(entry.ipAddress ?? caller.ip, 45),
      userAgent: truncate(entry.userAgent ?? caller.userAgent, 500),
      method: truncate(entry.method ?? caller.method, 10),
      path: truncate(entry.path ?? caller.path, 500),
      statusCode: entry.statusCode ?? null,
      metadata,
      errorMessage: entry.errorMessage ?? null,
      createdAt: now.toISOString(),
    });
    this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
    this.timer.unref?.();
  }

  /** Writes everything buffered so far; resolves when it is stored (or the failure is logged). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.store.append(batch);
      } catch (error) {
        this.logger.error({ err: error, entries: batch.length }, 'audit write failed; entries dropped');
      }
    });
    return this.flushing;
  }

  private admitSample(key: string, nowMs: number): boolean {
    const last = this.lastSampled.get(key);
    if (last !== undefined && nowMs - last < SAMPLE_WINDOW_MS) return false;
    this.lastSampled.delete(key);
    this.lastSampled.set(key, nowMs);
    if (this.lastSampled.size > MAX_SAMPLE_KEYS) {
      const oldest = this.lastSampled.keys().next().value;
      if (oldest !== undefined) this.lastSampled.delete(oldest);
    }
    return true;
  }
}
