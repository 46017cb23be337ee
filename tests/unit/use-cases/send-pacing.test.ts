/**
 * Send pacing and the breaker on a fake clock, against the memory stores: warm-up caps by session age, the UTC day
 * rollover, the cold cap (what counts as cold), the breaker tripping after N counted failures and lifting after its
 * cooldown, the retryAfterSeconds of each refusal, and the audit entries (send_pacing_blocked sampled per session per
 * minute, send_breaker_tripped never).
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { SendPacingPolicy } from '#shared/domain/send-pacing.js';
import type { Session } from '#shared/domain/session.js';
import { SendPacingLimitedError, ValidationError } from '#shared/errors/app-error.js';
import { createMetrics } from '#shared/observability/metrics.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import { SendBreaker } from '#shared/use-cases/messages/send-breaker.js';
import { SendPacer } from '#shared/use-cases/messages/send-pacing.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TEXT = { type: 'text' };
let chats = 0;
const newChat = () => `1555700${String(++chats).padStart(4, '0')}@c.us`;

const POLICY: SendPacingPolicy = {
  warmupSchedule: [3, 5],
  coldSchedule: [],
  breakerThreshold: 3,
  breakerCooldownMs: 15 * MINUTE,
};

describe('send pacing', () => {
  let clock: TestClock;
  let data: DataStore;
  let auditLog: MemoryAuditLogStore;
  let audit: AuditRecorder;
  let session: Session;

  beforeEach(async () => {
    // Created at 10:00 UTC; every test starts at 10:00 of that day.
    clock = new TestClock(Date.parse('2025-03-01T10:00:00.000Z'));
    data = createMemoryDataStore();
    auditLog = new MemoryAuditLogStore();
    audit = new AuditRecorder(auditLog, clock, silentLogger, createMetrics());
    session = aSession({ createdAt: clock.now().toISOString(), status: 'ready', phone: '15550001111' });
    await data.sessions.create(session);
  });

  const pacerWith = (policy: Partial<SendPacingPolicy> = {}) =>
    new SendPacer(
      { store: data.sendPacing, messages: data.messages, audit, clock, metrics: createMetrics() },
      { ...POLICY, ...policy },
    );
  const breaker = () =>
    new SendBreaker({ store: data.sendPacing, audit, clock, logger: silentLogger }, POLICY);
  /** Admits a send and stores its row, as the send use case does. */
  const sendTo = async (pacer: SendPacer, chatId: string, content = TEXT) => {
    await pacer.admit(SYSTEM_CALLER, session, chatId, content);
    await data.messages.insert(aMessage({ sessionId: session.id, chatId, direction: 'outgoing' }));
  };
  const refusal = async (attempt: Promise<unknown>) => {
    const error = await attempt.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SendPacingLimitedError);
    return error as SendPacingLimitedError;
  };
  const audited = async (action: string) => {
    await audit.flush();
    return (await auditLog.query({ action: action as never }, { limit: 100, offset: 0 })).data;
  };

  it('lets a new session send its first day’s allowance, then refuses until the next UTC day', async () => {
    const pacer = pacerWith();
    for (let i = 0; i < 3; i++) await sendTo(pacer, newChat());
    const refused = await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    // 10:00 → midnight is 14 hours.
    expect(refused).toMatchObject({
      status: 429,
      code: 'SEND_PACING_LIMITED',
      retryable: true,
      retryAfterSeconds: 14 * 3600,
      headers: { 'retry-after': String(14 * 3600) },
      details: { rule: 'daily_cap', allowance: 3, sentToday: 3, retryAfterSeconds: 14 * 3600 },
    });
    expect(refused.message).toBe('Daily send allowance of 3 reached for a session 0 day(s) old');

    clock.advance(13 * HOUR + 59 * MINUTE + 59_500); // 23:59:59.500, still day 0
    expect((await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT))).retryAfterSeconds).toBe(1);
    clock.advance(500); // midnight: day 1, a new day's count and the second rung of the ramp
    for (let i = 0; i < 5; i++) await sendTo(pacer, newChat());
    const dayOne = await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    expect(dayOne.details).toMatchObject({ rule: 'daily_cap', allowance: 5 });
    expect(dayOne.retryAfterSeconds).toBe(24 * 3600);
  });

  it('keeps the last allowance of the schedule for older sessions', async () => {
    clock.advance(30 * 24 * HOUR);
    const pacer = pacerWith();
    for (let i = 0; i < 5; i++) await sendTo(pacer, newChat());
    expect((await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT))).message).toBe(
      'Daily send allowance of 5 reached for a session 30 day(s) old',
    );
  });

  it('caps sends to chats without history, while chats with any history in either direction stay open', async () => {
    const pacer = pacerWith({ warmupSchedule: [100], coldSchedule: [2, 4] });
    const wroteFirst = newChat();
    await data.messages.insert(
      aMessage({ sessionId: session.id, chatId: wroteFirst, direction: 'incoming' }),
    );
    const [first, second] = [newChat(), newChat()];
    await sendTo(pacer, first);
    await sendTo(pacer, second);
    const refused = await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    expect(refused.details).toMatchObject({ rule: 'cold_daily_cap', allowance: 2, coldToday: 2 });
    expect(refused.message).toBe(
      'Daily allowance of 2 new conversation(s) reached for a session 0 day(s) old',
    );
    expect(refused.retryAfterSeconds).toBe(14 * 3600);
    // Answering someone who wrote first, or writing again to a chat already started, is no reach-out.
    await sendTo(pacer, wroteFirst);
    await sendTo(pacer, first);
    await sendTo(pacer, second);
    clock.advance(24 * HOUR);
    for (let i = 0; i < 4; i++) await sendTo(pacer, newChat());
    expect((await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT))).details).toMatchObject({
      rule: 'cold_daily_cap',
      allowance: 4,
    });
  });

  it('never paces reactions and revokes, and never looks for history without a cold cap', async () => {
    const pacer = pacerWith({ warmupSchedule: [1] });
    await sendTo(pacer, newChat());
    for (const type of ['reaction', 'revoke']) await pacer.admit(SYSTEM_CALLER, session, newChat(), { type });
    let probes = 0;
    data.messages.hasChat = async () => {
      probes += 1;
      return false;
    };
    await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    expect(probes).toBe(0);
  });

  it('audits a refusal once per session per minute (send_pacing_blocked, warn, with the rule)', async () => {
    const pacer = pacerWith({ warmupSchedule: [1] });
    await sendTo(pacer, newChat());
    const chatId = newChat();
    await refusal(pacer.admit(SYSTEM_CALLER, session, chatId, TEXT));
    await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    expect(await audited('send_pacing_blocked')).toEqual([
      expect.objectContaining({
        severity: 'warn',
        sessionId: session.id,
        sessionName: session.name,
        metadata: { rule: 'daily_cap', retryAfterSeconds: 14 * 3600, chatId },
        errorMessage: 'Daily send allowance of 1 reached for a session 0 day(s) old',
      }),
    ]);
    clock.advance(MINUTE);
    await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    expect(await audited('send_pacing_blocked')).toHaveLength(2);
  });

  it('trips the breaker on the threshold-th counted failure, refuses until the cooldown ends, audits the trip', async () => {
    const pacer = pacerWith();
    const sends = breaker();
    await sends.failed(session.id, new Error('send refused by the network'));
    await sends.failed(session.id, new ValidationError('not the account’s fault'));
    await sends.failed(session.id, new Error('send refused by the network'));
    await sendTo(pacer, newChat());
    expect(await audited('send_breaker_tripped')).toEqual([]);

    await sends.failed(session.id, new Error('send refused by the network'));
    const refused = await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    expect(refused.details).toEqual({ rule: 'breaker_open', retryAfterSeconds: 900 });
    expect(refused.message).toBe('Sends are paused after a run of consecutive send failures');
    // Reactions still go through an open breaker.
    await pacer.admit(SYSTEM_CALLER, session, newChat(), { type: 'reaction' });
    clock.advance(10 * MINUTE + 500);
    expect((await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT))).retryAfterSeconds).toBe(300);

    await sends.failed(session.id, new Error('still failing'));
    expect(await audited('send_breaker_tripped')).toEqual([
      expect.objectContaining({
        severity: 'warn',
        sessionId: session.id,
        apiKeyId: null,
        metadata: { consecutiveFailures: 3, cooldownMs: 900_000 },
        errorMessage: 'Send breaker tripped after 3 consecutive send failures',
      }),
    ]);
    clock.advance(5 * MINUTE);
    // The cooldown is over: paced sends go through again.
    await expect(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT)).resolves.toBeUndefined();
  });

  it('closes the breaker and ends the streak on a success', async () => {
    const pacer = pacerWith({ warmupSchedule: [100] });
    const sends = breaker();
    for (let i = 0; i < 3; i++) await sends.failed(session.id, new Error('refused'));
    await refusal(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT));
    await sends.succeeded(session.id);
    await sendTo(pacer, newChat());
    // A new streak from zero: two more failures do not trip it.
    await sends.failed(session.id, new Error('refused'));
    await sends.failed(session.id, new Error('refused'));
    await sendTo(pacer, newChat());
    expect(await audited('send_breaker_tripped')).toHaveLength(1);
  });

  it('resets a streak this host counted at the next success even right after an earlier reset', async () => {
    const pacer = pacerWith({ warmupSchedule: [100] });
    const sends = breaker();
    await sends.succeeded(session.id);
    await sends.failed(session.id, new Error('refused'));
    await sends.failed(session.id, new Error('refused'));
    // The success memo would skip the store within the minute; a failure in between forgets it.
    await sends.succeeded(session.id);
    await sends.failed(session.id, new Error('refused'));
    await sends.failed(session.id, new Error('refused'));
    // The streak is two, not four: the breaker is closed and nothing tripped it.
    await expect(pacer.admit(SYSTEM_CALLER, session, newChat(), TEXT)).resolves.toBeUndefined();
    expect(await audited('send_breaker_tripped')).toEqual([]);
    // A third failure in a row is the threshold-th of this streak.
    await sends.failed(session.id, new Error('refused'));
    expect(await audited('send_breaker_tripped')).toEqual([
      expect.objectContaining({ metadata: { consecutiveFailures: 3, cooldownMs: 900_000 } }),
    ]);
  });
});
