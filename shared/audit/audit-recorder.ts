/**
 * The one way audit entries are recorded: stamps them with the caller and time and hands them to the AuditWriter
 * (group commit, retries, nothing dropped silently). Applies the spec's sampling (rate_limit_exceeded once per
 * subject and kind per minute, send_pacing_blocked once per session per minute; everything else,
 * send_breaker_tripped included, is never sampled). api_key_used, which the spec asks for on successful use, is
 * written once per key per minute: a row per request would turn the audit log into an access log and cost a write
 * per request.
 */
import type { NewAuditEntry } from '#shared/domain/audit.js';
import type { Caller } from '#shared/domain/caller.js';
import { newRecordId } from '#shared/domain/record-id.js';
import type { AuditMetrics } from '#shared/observability/metrics.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { AuditWriter, type AuditWriterOptions } from './audit-writer.js';

const SAMPLE_WINDOW_MS = 60_000;
const MAX_SAMPLE_KEYS = 10_000;

/** The sampling key of an entry whose action is sampled, or null (on every authenticated request: no allocation). */
function sampleKeyOf(entry: NewAuditEntry): string | null {
  switch (entry.action) {
    case 'api_key_used':
      return `ku:${entry.apiKeyId ?? ''}`;
    case 'send_pacing_blocked':
      return `sp:${entry.sessionId ?? ''}`;
    // One per webhook per minute: a busy webhook would otherwise write an entry per delivery.
    case 'webhook_triggered':
      return `wt:${String(entry.metadata?.webhookId ?? '')}`;
    case 'rate_limit_exceeded': {
      const meta = entry.metadata ?? {};
      return `rl:${String(meta.subject ?? entry.ipAddress ?? '')}:${String(meta.kind ?? '')}`;
    }
    default:
      return null;
  }
}

const truncate = (value: string | null | undefined, max: number): string | null =>
  value == null ? null : value.length > max ? value.slice(0, max) : value;

/** Stamps, samples and hands audit entries to the writer; one per process, shared by every caller. */
export class AuditRecorder {
  private readonly lastSampled = new Map<string, number>();
  private readonly writer: AuditWriter;

  constructor(
    store: AuditLogStore,
    private readonly clock: Clock,
    logger: Logger,
    metrics: AuditMetrics,
    options: AuditWriterOptions = {},
  ) {
    this.writer = new AuditWriter(store, logger, metrics, options);
  }

  /**
   * Records an entry stamped with the caller's key, IP, request and time. Resolves once it is stored (or, the store
   * failing, kept for retry); never rejects. Security-relevant actions are awaited so the row exists before the
   * response; others may be left to the background (`void audit.record(…)`). `background` marks a high-volume entry
   * nobody waits for: it may linger a moment to share its write with others (AuditWriter).
   */
  record(caller: Caller, entry: NewAuditEntry, options: { background?: boolean } = {}): Promise<void> {
    const now = this.clock.now();
    const sampleKey = sampleKeyOf(entry);
    if (sampleKey !== null && !this.admitSample(sampleKey, now.getTime())) return Promise.resolve();
    const via = caller.tool === undefined ? {} : { via: 'mcp', tool: caller.tool };
    const metadata =
      caller.requestId || caller.tool !== undefined
        ? { ...(caller.requestId ? { requestId: caller.requestId } : {}), ...via, ...entry.metadata }
        : (entry.metadata ?? null);
    return this.writer.write(
      {
        id: newRecordId(),
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
      },
      options,
    );
  }

  /** Writes everything recorded so far and tries the retry buffer once (Lambda: before the instance may freeze). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Shutdown: a final flush; entries the store still refuses are counted as dropped and logged. */
  close(): Promise<void> {
    return this.writer.close();
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
