import { describe, expect, it } from '@jest/globals';
import {
  decideReconnect,
  MAX_RECONNECT_DELAY_MS,
  ReconnectStreak,
  resolveReconnectConfig,
} from '#host/sessions/reconnect-policy.js';

describe('resolveReconnectConfig', () => {
  it('defaults to unlimited attempts and a 5 s base', () => {
    expect(resolveReconnectConfig({})).toEqual({ maxAttempts: null, baseDelayMs: 5000 });
  });

  it('clamps attempts to 0–20 and the base delay to 1000–300000 ms', () => {
    expect(resolveReconnectConfig({ maxReconnectAttempts: 99, reconnectBaseDelay: 10 })).toEqual({
      maxAttempts: 20,
      baseDelayMs: 1000,
    });
    expect(resolveReconnectConfig({ maxReconnectAttempts: -3, reconnectBaseDelay: 10_000_000 })).toEqual({
      maxAttempts: 0,
      baseDelayMs: 300_000,
    });
  });

  it('treats null attempts as unlimited and non-numbers as defaults', () => {
    expect(resolveReconnectConfig({ maxReconnectAttempts: null })).toEqual({
      maxAttempts: null,
      baseDelayMs: 5000,
    });
    expect(resolveReconnectConfig({ reconnectBaseDelay: 'soon' as unknown as number })).toEqual({
      maxAttempts: null,
      baseDelayMs: 5000,
    });
  });
});

describe('decideReconnect', () => {
  const middle = () => 0.5;

  it('doubles the delay per attempt from the base', () => {
    const config = { maxAttempts: null, baseDelayMs: 1000 };
    const delays = [1, 2, 3, 4].map((n) => {
      const decision = decideReconnect(n, config, middle);
      return decision.action === 'retry' ? decision.delayMs : -1;
    });
    expect(delays).toEqual([1000, 2000, 4000, 8000]);
  });

  it('applies ±20 % jitter', () => {
    const config = { maxAttempts: null, baseDelayMs: 10_000 };
    expect(decideReconnect(1, config, () => 0)).toMatchObject({ delayMs: 8000 });
    expect(decideReconnect(1, config, () => 0.999999)).toMatchObject({ delayMs: 12_000 });
  });

  it('caps the delay at 5 minutes, even after very many attempts', () => {
    const config = { maxAttempts: null, baseDelayMs: 300_000 };
    expect(decideReconnect(3, config, () => 0.999)).toMatchObject({ delayMs: MAX_RECONNECT_DELAY_MS });
    expect(decideReconnect(500, config, middle)).toMatchObject({ delayMs: MAX_RECONNECT_DELAY_MS });
  });

  it('reports a reconnect loop on every 5th attempt only', () => {
    const config = { maxAttempts: null, baseDelayMs: 1000 };
    const loops = Array.from({ length: 15 }, (_, i) => decideReconnect(i + 1, config, middle))
      .map((d, i) => (d.action === 'retry' && d.reportLoop ? i + 1 : 0))
      .filter(Boolean);
    expect(loops).toEqual([5, 10, 15]);
  });

  it('gives up after maxAttempts, and at once when reconnect is disabled (0)', () => {
    expect(decideReconnect(3, { maxAttempts: 3, baseDelayMs: 1000 }, middle).action).toBe('retry');
    expect(decideReconnect(4, { maxAttempts: 3, baseDelayMs: 1000 }, middle)).toEqual({
      action: 'give_up',
      attempts: 3,
    });
    expect(decideReconnect(1, { maxAttempts: 0, baseDelayMs: 1000 }, middle)).toEqual({
      action: 'give_up',
      attempts: 0,
    });
  });
});

describe('ReconnectStreak', () => {
  const middle = () => 0.5;
  const streakOf = (baseDelayMs: number, maxAttempts: number | null = null) =>
    new ReconnectStreak({ maxAttempts, baseDelayMs }, middle);

  it('names the reason, the delay and the attempt in lastError', () => {
    const streak = streakOf(5000);
    expect(
      streak.lost('Cannot reach the WhatsApp server (getaddrinfo ENOTFOUND web.whatsapp.com)', false),
    ).toMatchObject({
      attempt: 1,
      lastError:
        'Cannot reach the WhatsApp server (getaddrinfo ENOTFOUND web.whatsapp.com); reconnecting in 5 s (attempt 1)',
    });
    expect(streak.lost('refused', false).lastError).toBe('refused; reconnecting in 10 s (attempt 2)');
  });

  it('writes delays of a minute and more in minutes', () => {
    const streak = streakOf(75_000);
    expect(streak.lost('down', false).lastError).toBe('down; reconnecting in 1 min 15 s (attempt 1)');
    expect(streak.lost('down', false).lastError).toBe('down; reconnecting in 2 min 30 s (attempt 2)');
    expect(streak.lost('down', false).lastError).toBe('down; reconnecting in 5 min (attempt 3)');
  });

  it('audits the first failed attempt of a streak and every 5th failure, not the ones between', () => {
    const streak = streakOf(1000);
    const audited = Array.from({ length: 11 }, () => streak.lost('refused', false).audited);
    expect(audited).toEqual([true, false, false, false, true, false, false, false, false, true, false]);
  });

  it('only logs a drop of a working connection; the first attempt after it that fails is audited', () => {
    const streak = streakOf(1000);
    expect(streak.lost('connection lost', true).audited).toBe(false);
    expect(streak.lost('refused', false)).toMatchObject({ attempt: 2, audited: true });
    expect(streak.lost('refused', false).audited).toBe(false);
  });

  it('audits the failure that ends the attempts, with lastError saying they are exhausted', () => {
    const streak = streakOf(1000, 1);
    expect(streak.lost('connection lost', true).audited).toBe(false);
    expect(streak.lost('refused', false)).toMatchObject({
      decision: { action: 'give_up', attempts: 1 },
      lastError: 'Reconnect attempts exhausted after 1 attempt(s): refused',
      audited: true,
    });
  });

  it('starts again from the first attempt once reset (the session was ready)', () => {
    const streak = streakOf(1000);
    streak.lost('refused', false);
    streak.lost('refused', false);
    streak.reset();
    expect(streak.lost('refused', false)).toMatchObject({ attempt: 1, audited: true });
  });
});
