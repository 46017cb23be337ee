import { describe, expect, it } from '@jest/globals';
import { MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Caller } from '#shared/domain/caller.js';
import { createMetrics } from '#shared/observability/metrics.js';
import type { AuditLogStore } from '#shared/ports/audit-log-store.port.js';
import type { Clock } from '#shared/ports/clock.port.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const caller: Caller = {
  key: { id: 'key-1', name: 'ops', role: 'operator', allowedSessions: null, allowedChats: null },
  ip: '10.0.0.1',
  userAgent: 'jest',
  requestId: 'req-1',
  method: 'POST',
  path: '/api/sessions',
};

async function all(store: AuditLogStore) {
  return (await store.query({}, { limit: 200, offset: 0 })).data;
}

const recorderOn = (store: AuditLogStore, clock: Clock = new TestClock()) =>
  new AuditRecorder(store, clock, silentLogger, createMetrics());

describe('AuditRecorder', () => {
  it('stamps entries with the caller and request', async () => {
    const store = new MemoryAuditLogStore();
    const recorder = recorderOn(store);
    await recorder.record(caller, { action: 'session_created', sessionId: 's-1', sessionName: 'one' });
    const [entry] = await all(store);
    expect(entry).toMatchObject({
      action: 'session_created',
      severity: 'info',
      apiKeyId: 'key-1',
      apiKeyName: 'ops',
      ipAddress: '10.0.0.1',
      method: 'POST',
      path: '/api/sessions',
      sessionId: 's-1',
      metadata: { requestId: 'req-1' },
    });
  });

  it('samples rate_limit_exceeded once per subject and kind per minute', async () => {
    const store = new MemoryAuditLogStore();
    const clock = new TestClock();
    const recorder = recorderOn(store, clock);
    const limited = (subject: string, kind = 'rest') =>
      recorder.record(caller, { action: 'rate_limit_exceeded', metadata: { subject, kind } });
    limited('1.1.1.1');
    limited('1.1.1.1');
    limited('1.1.1.1', 'mcp');
    limited('2.2.2.2');
    clock.advance(59_000);
    limited('1.1.1.1');
    clock.advance(1_000);
    limited('1.1.1.1');
    await recorder.flush();
    expect(await all(store)).toHaveLength(4);
  });

  it('samples send_pacing_blocked per session but never send_breaker_tripped', async () => {
    const store = new MemoryAuditLogStore();
    const recorder = recorderOn(store);
    for (let i = 0; i < 3; i++) {
      recorder.record(caller, { action: 'send_pacing_blocked', sessionId: 's-1' });
      recorder.record(caller, { action: 'send_breaker_tripped', sessionId: 's-1' });
    }
    recorder.record(caller, { action: 'send_pacing_blocked', sessionId: 's-2' });
    await recorder.flush();
    const actions = (await all(store)).map((e) => e.action);
    expect(actions.filter((a) => a === 'send_pacing_blocked')).toHaveLength(2);
    expect(actions.filter((a) => a === 'send_breaker_tripped')).toHaveLength(3);
  });

  it('samples api_key_used once per key per minute', async () => {
    const store = new MemoryAuditLogStore();
    const clock = new TestClock();
    const recorder = recorderOn(store, clock);
    for (let i = 0; i < 5; i++) recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-1' });
    recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-2' });
    clock.advance(60_000);
    recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-1' });
    await recorder.flush();
    expect((await all(store)).map((e) => e.apiKeyId).sort()).toEqual(['key-1', 'key-1', 'key-2']);
  });

  it('truncates over-long fields to the column limits', async () => {
    const store = new MemoryAuditLogStore();
    const recorder = recorderOn(store);
    recorder.record(
      { ...caller, userAgent: 'x'.repeat(900), path: `/${'p'.repeat(900)}` },
      { action: 'session_created' },
    );
    await recorder.flush();
    const [entry] = await all(store);
    expect(entry?.userAgent).toHaveLength(500);
    expect(entry?.path).toHaveLength(500);
  });
});
