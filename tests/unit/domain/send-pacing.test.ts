/**
 * The pure rules of send pacing (openwa-facts §7.6) and its variables (§9): age in whole UTC days, allowances past
 * the end of a schedule, retry-after values, which kinds are paced, which failures count toward the breaker, and the
 * fallback of every SEND_PACING_* variable to its default.
 */
import { describe, expect, it } from '@jest/globals';
import { loadEnv } from '#shared/config/env.js';
import {
  allowanceFor,
  countsTowardBreaker,
  isPacedContent,
  secondsUntil,
  secondsUntilNextUtcDay,
  sendPacingPolicy,
  sessionAgeDays,
  utcDay,
} from '#shared/domain/send-pacing.js';
import {
  EngineUnsupportedError,
  ForbiddenError,
  IncompleteOperationError,
  SessionStateError,
  UnavailableError,
  ValidationError,
} from '#shared/errors/app-error.js';

const d = (iso: string) => new Date(iso);

describe('send pacing rules', () => {
  it('counts a session’s age in whole UTC days, not in 24-hour spans', () => {
    expect(sessionAgeDays('2025-03-01T23:59:00.000Z', d('2025-03-01T23:59:59.999Z'))).toBe(0);
    expect(sessionAgeDays('2025-03-01T23:59:00.000Z', d('2025-03-02T00:00:00.000Z'))).toBe(1);
    expect(sessionAgeDays('2025-03-01T00:00:00.000Z', d('2025-03-02T23:59:59.000Z'))).toBe(1);
    expect(sessionAgeDays('2025-02-27T12:00:00.000Z', d('2025-03-01T01:00:00.000Z'))).toBe(2);
    // A clock behind the row's creation (another node's) never gives a negative age.
    expect(sessionAgeDays('2025-03-02T00:00:01.000Z', d('2025-03-01T23:59:59.000Z'))).toBe(0);
  });

  it('takes the allowance of the age, and the last entry past the end of the schedule', () => {
    const schedule = [20, 40, 80];
    expect([0, 1, 2, 3, 400].map((age) => allowanceFor(schedule, age))).toEqual([20, 40, 80, 80, 80]);
    expect(allowanceFor([7], 5)).toBe(7);
  });

  it('keys the counts by UTC day', () => {
    expect(utcDay(d('2025-03-01T23:59:59.999Z'))).toBe('2025-03-01');
    expect(utcDay(d('2025-03-02T00:00:00.000Z'))).toBe('2025-03-02');
  });

  it('lifts a spent allowance at the next UTC midnight (at least 1 s) and an open breaker at its end', () => {
    expect(secondsUntilNextUtcDay(d('2025-03-01T00:00:00.000Z'))).toBe(86_400);
    expect(secondsUntilNextUtcDay(d('2025-03-01T23:00:00.000Z'))).toBe(3_600);
    expect(secondsUntilNextUtcDay(d('2025-03-01T23:59:59.001Z'))).toBe(1);
    expect(secondsUntilNextUtcDay(d('2025-03-01T23:59:59.999Z'))).toBe(1);
    const now = d('2025-03-01T12:00:00.000Z');
    expect(secondsUntil(now.getTime() + 900_000, now)).toBe(900);
    expect(secondsUntil(now.getTime() + 1_500, now)).toBe(2);
    expect(secondsUntil(now.getTime() + 1, now)).toBe(1);
  });

  it('paces every kind but reactions and revokes', () => {
    for (const type of ['text', 'location', 'contact', 'edit']) expect(isPacedContent({ type })).toBe(true);
    for (const type of ['reaction', 'revoke']) expect(isPacedContent({ type })).toBe(false);
  });

  it('counts engine errors and 5xx toward the breaker, never the caller’s faults, 501 or 503', () => {
    expect(countsTowardBreaker(new Error('send refused by the network'))).toBe(true);
    expect(countsTowardBreaker('timeout')).toBe(true);
    expect(countsTowardBreaker(new IncompleteOperationError('SESSION_STOP_INCOMPLETE', 'x'))).toBe(true);
    for (const error of [
      new ValidationError('bad'),
      new SessionStateError('SESSION_NOT_READY', 'not ready'),
      new ForbiddenError('FORBIDDEN_ROLE', 'no'),
      new EngineUnsupportedError('test', 'labels', 'edit labels'),
      new UnavailableError('HOST_UNAVAILABLE', 'down'),
    ]) {
      expect(countsTowardBreaker(error)).toBe(false);
    }
  });
});

describe('SEND_PACING_* variables', () => {
  it('leave pacing off by default, with openwa’s defaults ready', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      SEND_PACING_ENABLED: false,
      SEND_PACING_WARMUP_SCHEDULE: [20, 40, 80, 160, 320, 640, 1000],
      SEND_PACING_COLD_DAILY_CAP: [5, 10, 20, 40, 60, 80, 100],
      SEND_PACING_BREAKER_THRESHOLD: 5,
      SEND_PACING_BREAKER_COOLDOWN_MS: 900_000,
    });
    expect(sendPacingPolicy(env)).toBeNull();
  });

  it('read what is set', () => {
    const env = loadEnv({
      SEND_PACING_ENABLED: 'true',
      SEND_PACING_WARMUP_SCHEDULE: ' 3, 6 ,12.9',
      SEND_PACING_COLD_DAILY_CAP: '2',
      SEND_PACING_BREAKER_THRESHOLD: '2',
      SEND_PACING_BREAKER_COOLDOWN_MS: '1000',
    });
    expect(sendPacingPolicy(env)).toEqual({
      warmupSchedule: [3, 6, 12],
      coldSchedule: [2],
      breakerThreshold: 2,
      breakerCooldownMs: 1000,
    });
  });

  it.each(['5,abc,20', '5,0,20', '5,,20', '5,-1', '100001', 'Infinity'])(
    'fall back to the whole default schedule for %p',
    (raw) => {
      const env = loadEnv({ SEND_PACING_WARMUP_SCHEDULE: raw, SEND_PACING_COLD_DAILY_CAP: raw });
      expect(env.SEND_PACING_WARMUP_SCHEDULE).toEqual([20, 40, 80, 160, 320, 640, 1000]);
      expect(env.SEND_PACING_COLD_DAILY_CAP).toEqual([5, 10, 20, 40, 60, 80, 100]);
    },
  );

  it('turn the cold cap off with an explicit empty value; a blank warm-up schedule is the default', () => {
    const env = loadEnv({ SEND_PACING_COLD_DAILY_CAP: ' ', SEND_PACING_WARMUP_SCHEDULE: '' });
    expect(env.SEND_PACING_COLD_DAILY_CAP).toEqual([]);
    expect(env.SEND_PACING_WARMUP_SCHEDULE).toEqual([20, 40, 80, 160, 320, 640, 1000]);
  });

  it.each(['0', '-3', 'many', ''])('fall back to the breaker defaults for %p', (raw) => {
    const env = loadEnv({ SEND_PACING_BREAKER_THRESHOLD: raw, SEND_PACING_BREAKER_COOLDOWN_MS: raw });
    expect([env.SEND_PACING_BREAKER_THRESHOLD, env.SEND_PACING_BREAKER_COOLDOWN_MS]).toEqual([5, 900_000]);
  });

  it('keep the cooldown at 1 s or more (a shorter one is the default) and refuse a non-boolean switch', () => {
    expect(loadEnv({ SEND_PACING_BREAKER_COOLDOWN_MS: '999' }).SEND_PACING_BREAKER_COOLDOWN_MS).toBe(900_000);
    expect(() => loadEnv({ SEND_PACING_ENABLED: 'sometimes' })).toThrow(/SEND_PACING_ENABLED/);
  });
});
