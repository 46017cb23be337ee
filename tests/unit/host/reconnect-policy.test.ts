import { describe, expect, it } from '@jest/globals';
import {
  decideReconnect,
  MAX_RECONNECT_DELAY_MS,
  resolveReconnectConfig,
} from '../../../host/sessions/reconnect-policy.js';

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
