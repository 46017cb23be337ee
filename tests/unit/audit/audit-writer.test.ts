/**
 * How the recorder gets entries into a store that fails: awaited records resolve after the write, failed writes
 * are retried (in the call, then from a bounded retry buffer), and nothing is discarded without being counted in
 * waygate_audit_entries_dropped_total and logged.
 */
import { describe, expect, it } from '@jest/globals';
import type { Counter, Gauge } from 'prom-client';
import { MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { AuditWriterOptions } from '#shared/audit/audit-writer.js';
import type { AuditEntry } from '#shared/domain/audit.js';
import type { Caller } from '#shared/domain/caller.js';
import { createMetrics } from '#shared/observability/metrics.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import { capturingLogger, type LogLine } from '#tests/helpers/capturing-logger.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { waitFor } from '#tests/helpers/test-gateway.js';

const caller: Caller = {
  key: { id: 'key-1', name: 'ops', role: 'admin', allowedSessions: null, allowedChats: null },
  ip: '10.0.0.1',
  userAgent: 'jest',
  requestId: 'req-1',
  method: 'DELETE',
  path: '/api/sessions/s-1',
};

/** A memory store whose next `failures` appends throw; with `landFirst` a failing append stores before throwing. */
class FlakyStore implements AuditLogStore {
  readonly inner = new MemoryAuditLogStore();
  readonly appends: AuditEntry[][] = [];

  constructor(
    public failures: number,
    private readonly landFirst = false,
  ) {}

  async append(entries: readonly AuditEntry[]): Promise<void> {
    this.appends.push([...entries]);
    if (this.failures <= 0) return this.inner.append(entries);
    this.failures -= 1;
    if (this.landFirst) await this.inner.append(entries);
    throw new Error('store unavailable');
  }
  query: AuditLogStore['query'] = (filter, page) => this.inner.query(filter, page);
  pruneOlderThan: AuditLogStore['pruneOlderThan'] = (cutoff, limit) =>
    this.inner.pruneOlderThan(cutoff, limit);

  async actions(): Promise<string[]> {
    return (await this.inner.query({}, { limit: 200, offset: 0 })).data.map((entry) => entry.action).sort();
  }
}

async function metricValue(metric: Counter<string> | Gauge<string>, labels: Record<string, string> = {}) {
  const { values } = await metric.get();
  const found = values.find((v) => Object.entries(labels).every(([name, value]) => v.labels[name] === value));
  return found?.value ?? 0;
}

/** Fast retries; the background retry of the buffer waits a minute unless a test says otherwise. */
function setup(store: FlakyStore, options: AuditWriterOptions = {}) {
  const metrics = createMetrics();
  const lines: LogLine[] = [];
  const recorder = new AuditRecorder(store, new TestClock(), capturingLogger(lines), metrics, {
    retryDelayMs: 1,
    backgroundDelayMs: 60_000,
    ...options,
  });
  const dropped = (action: string) => metricValue(metrics.auditEntriesDropped, { action });
  return { recorder, metrics, lines, dropped };
}

describe('AuditRecorder writing to a failing store', () => {
  it('resolves an awaited record once its entry is stored, with no flush', async () => {
    const store = new FlakyStore(0);
    const { recorder } = setup(store);
    await recorder.record(caller, { action: 'session_deleted', sessionId: 's-1' });
    expect(await store.actions()).toEqual(['session_deleted']);
  });

  it('writes the entries recorded in the same tick in one append', async () => {
    const store = new FlakyStore(0);
    const { recorder } = setup(store);
    await Promise.all([
      recorder.record(caller, { action: 'session_created' }),
      recorder.record(caller, { action: 'session_started' }),
      recorder.record(caller, { action: 'api_key_auth_failed' }),
    ]);
    expect(store.appends.map((batch) => batch.length)).toEqual([3]);
  });

  it('retries a failed write and resolves the awaited record once it is stored, counting the failures', async () => {
    const store = new FlakyStore(2);
    const { recorder, metrics, dropped } = setup(store);
    await recorder.record(caller, { action: 'api_key_revoked' });
    expect(await store.actions()).toEqual(['api_key_revoked']);
    expect(store.appends).toHaveLength(3);
    expect(await metricValue(metrics.auditWriteFailures)).toBe(2);
    expect(await dropped('api_key_revoked')).toBe(0);
  });

  it('stores an entry once when a failed attempt had in fact landed', async () => {
    const store = new FlakyStore(1, true);
    const { recorder } = setup(store);
    await recorder.record(caller, { action: 'api_key_created' });
    expect(store.appends).toHaveLength(2);
    expect(await store.actions()).toEqual(['api_key_created']);
  });

  it('keeps entries whose attempts all failed in the retry buffer and writes them in the background', async () => {
    const store = new FlakyStore(4);
    const { recorder, metrics, dropped } = setup(store, { attempts: 2, backgroundDelayMs: 5 });
    await recorder.record(caller, { action: 'session_deleted' });
    expect(store.appends).toHaveLength(2);
    expect(await store.actions()).toEqual([]);
    expect(await metricValue(metrics.auditRetryBuffered)).toBe(1);
    await waitFor(async () => (await store.actions()).length === 1, 5_000);
    expect(await store.actions()).toEqual(['session_deleted']);
    expect(await metricValue(metrics.auditRetryBuffered)).toBe(0);
    expect(await dropped('session_deleted')).toBe(0);
  });

  it('writes the retry buffer as soon as a fresh write succeeds again', async () => {
    const store = new FlakyStore(1);
    const { recorder } = setup(store, { attempts: 1 });
    await recorder.record(caller, { action: 'session_stopped' });
    expect(await store.actions()).toEqual([]);
    await recorder.record(caller, { action: 'session_started' });
    await waitFor(async () => (await store.actions()).length === 2, 5_000);
    expect(await store.actions()).toEqual(['session_started', 'session_stopped']);
  });

  it('beyond the retry buffer cap, drops high-volume entries first, counted by action and logged', async () => {
    const store = new FlakyStore(Number.POSITIVE_INFINITY);
    const { recorder, lines, dropped } = setup(store, { attempts: 1, maxRetryBuffered: 2 });
    await recorder.record(caller, { action: 'session_deleted' });
    await recorder.record(caller, { action: 'session_qr_generated' });
    await recorder.record(caller, { action: 'api_key_auth_failed' });
    await recorder.record(caller, { action: 'api_key_revoked' });
    expect(await dropped('session_qr_generated')).toBe(1);
    // Only security entries are left: the oldest of them goes.
    expect(await dropped('session_deleted')).toBe(1);
    expect(await dropped('api_key_auth_failed')).toBe(0);
    const logged = lines.filter((line) => line.level === 'error' && line.fields.dropped !== undefined);
    const actions = logged.flatMap((line) => (line.fields.entries as AuditEntry[]).map((e) => e.action));
    expect(actions.sort()).toEqual(['session_deleted', 'session_qr_generated']);
    expect(logged[0]?.fields.reason).toMatch(/retry buffer is full/);
  });

  it('flush writes the retry buffer', async () => {
    const store = new FlakyStore(1);
    const { recorder } = setup(store, { attempts: 1 });
    await recorder.record(caller, { action: 'api_key_deleted' });
    expect(await store.actions()).toEqual([]);
    await recorder.flush();
    expect(await store.actions()).toEqual(['api_key_deleted']);
  });

  it('close writes the retry buffer at shutdown, retrying as often as a fresh write', async () => {
    const store = new FlakyStore(3);
    const { recorder, dropped } = setup(store, { attempts: 2 });
    await recorder.record(caller, { action: 'session_logged_out' });
    await recorder.close();
    expect(await store.actions()).toEqual(['session_logged_out']);
    expect(await dropped('session_logged_out')).toBe(0);
  });

  it('close counts and logs what the store still refuses after its final attempts', async () => {
    const store = new FlakyStore(Number.POSITIVE_INFINITY);
    const { recorder, lines, dropped } = setup(store, { attempts: 2 });
    void recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-1' });
    await recorder.record(caller, { action: 'session_force_killed' });
    const before = store.appends.length;
    await recorder.close();
    expect(store.appends.length).toBeGreaterThanOrEqual(before + 2);
    expect(await dropped('api_key_used')).toBe(1);
    expect(await dropped('session_force_killed')).toBe(1);
    const logged = lines.find((line) => line.level === 'error' && line.fields.dropped === 2);
    expect(logged?.fields.reason).toMatch(/shutdown/);
  });

  it('a flush after an awaited record does not write the entry again', async () => {
    const store = new FlakyStore(0);
    const { recorder } = setup(store);
    const used = recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-1' });
    await recorder.record(caller, { action: 'session_created' });
    await recorder.flush();
    await used;
    expect(store.appends.flat().map((entry) => entry.action)).toEqual(['api_key_used', 'session_created']);
  });

  it('never rejects, whatever the store does', async () => {
    const store = new FlakyStore(Number.POSITIVE_INFINITY);
    const { recorder } = setup(store, { attempts: 1 });
    await expect(recorder.record(caller, { action: 'session_deleted' })).resolves.toBeUndefined();
    await expect(recorder.flush()).resolves.toBeUndefined();
    await expect(recorder.close()).resolves.toBeUndefined();
  });
});

describe('AuditRecorder background entries', () => {
  it('lets background entries linger so that a stream of them shares one append', async () => {
    const store = new FlakyStore(0);
    const { recorder } = setup(store, { lingerMs: 30 });
    const first = recorder.record(caller, { action: 'message_sent' }, { background: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = recorder.record(caller, { action: 'message_sent' }, { background: true });
    // Still lingering a few turns later: nothing written yet.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(store.appends).toHaveLength(0);
    await Promise.all([first, second]);
    expect(store.appends.map((batch) => batch.length)).toEqual([2]);
  });

  it('writes lingering entries at once with the next entry someone may wait for', async () => {
    const store = new FlakyStore(0);
    const { recorder } = setup(store, { lingerMs: 60_000 });
    const lingering = recorder.record(caller, { action: 'message_sent' }, { background: true });
    await recorder.record(caller, { action: 'session_deleted' });
    await lingering;
    expect(store.appends.map((batch) => batch.map((entry) => entry.action))).toEqual([
      ['message_sent', 'session_deleted'],
    ]);
  });

  it('flush and close write lingering entries without waiting out the linger', async () => {
    const store = new FlakyStore(0);
    const { recorder } = setup(store, { lingerMs: 60_000 });
    void recorder.record(caller, { action: 'message_sent' }, { background: true });
    await recorder.flush();
    expect(await store.actions()).toEqual(['message_sent']);
    void recorder.record(caller, { action: 'message_failed' }, { background: true });
    await recorder.close();
    expect(await store.actions()).toEqual(['message_failed', 'message_sent']);
  });

  it('writes a full batch of background entries without lingering', async () => {
    const store = new FlakyStore(0);
    const { recorder } = setup(store, { lingerMs: 60_000, batchSize: 3 });
    await Promise.all(
      [1, 2, 3].map(() => recorder.record(caller, { action: 'message_sent' }, { background: true })),
    );
    expect(store.appends.map((batch) => batch.length)).toEqual([3]);
  });
});
