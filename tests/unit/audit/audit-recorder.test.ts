import { describe, expect, it } from '@jest/globals';
import { MemoryAuditLogStore } from '../../../shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '../../../shared/audit/audit-recorder.js';
import { type Caller, SYSTEM_CALLER } from '../../../shared/domain/caller.js';
import type { AuditLogStore } from '../../../shared/ports/audit-log-store.port.js';
import { silentLogger } from '../../../shared/ports/logger.port.js';
import { TestClock } from '../../helpers/test-clock.js';

const caller: Caller = {
  key: { id: 'key-1', name: 'ops', role: 'operator', allowedSessions: null },
  ip: '10.0.0.1',
  userAgent: 'jest',
  requestId: 'req-1',
  method: 'POST',
  path: '/api/sessions',
};

async function all(store: AuditLogStore) {
  return (await store.query({}, { limit: 200, offset: 0 })).data;
}

describe('AuditRecorder', () => {
  it('stamps entries with the caller and request, and writes them on flush', async () => {
    const store = new MemoryAuditLogStore();
    const recorder = new AuditRecorder(store, new TestClock(), silentLogger);
    recorder.record(caller, { action: 'session_created', sessionId: 's-1', sessionName: 'one' });
    expect(await all(store)).toHaveLength(0);
    await recorder.flush();
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

  it('flushes by itself shortly after recording', async () => {
    const store = new MemoryAuditLogStore();
    const recorder = new AuditRecorder(store, new TestClock(), silentLogger, { flushDelayMs: 5 });
    recorder.record(SYSTEM_CALLER, { action: 'session_connected' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await all(store)).toHaveLength(1);
  });

  it('never throws when the store fails, and keeps working afterwards', async () => {
    let fail = true;
    const inner = new MemoryAuditLogStore();
    const flaky: AuditLogStore = {
      append: async (entries) => {
        if (fail) throw new Error('disk full');
        await inner.append(entries);
      },
      query: (filter, page) => inner.query(filter, page),
      pruneBefore: (cutoff) => inner.pruneBefore(cutoff),
    };
    const recorder = new AuditRecorder(flaky, new TestClock(), silentLogger);
    expect(() => recorder.record(caller, { action: 'session_deleted' })).not.toThrow();
    await expect(recorder.flush()).resolves.toBeUndefined();
    fail = false;
    recorder.record(caller, { action: 'session_stopped' });
    await recorder.flush();
    expect((await all(inner)).map((e) => e.action)).toEqual(['session_stopped']);
  });

  it('samples rate_limit_exceeded once per subject and kind per minute', async () => {
    const store = new MemoryAuditLogStore();
    const clock = new TestClock();
    const recorder = new AuditRecorder(store, clock, silentLogger);
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
    const recorder = new AuditRecorder(store, new TestClock(), silentLogger);
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
    const recorder = new AuditRecorder(store, clock, silentLogger);
    for (let i = 0; i < 5; i++) recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-1' });
    recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-2' });
    clock.advance(60_000);
    recorder.record(caller, { action: 'api_key_used', apiKeyId: 'key-1' });
    await recorder.flush();
    expect((await all(store)).map((e) => e.apiKeyId).sort()).toEqual(['key-1', 'key-1', 'key-2']);
  });

  it('truncates over-long fields to the column limits', async () => {
    const store = new MemoryAuditLogStore();
    const recorder = new AuditRecorder(store, new TestClock(), silentLogger);
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
