import { describe, expect, it } from '@jest/globals';
import { FixedWindowRateLimiter } from '#shared/security/rate-limiter.js';

describe('FixedWindowRateLimiter', () => {
  it('allows max hits per window per subject, then refuses with the seconds left', () => {
    const limiter = new FixedWindowRateLimiter(2, 60_000);
    expect(limiter.hit('a', 0).allowed).toBe(true);
    expect(limiter.hit('a', 1000).allowed).toBe(true);
    expect(limiter.hit('a', 2000)).toEqual({ allowed: false, retryAfterSeconds: 58 });
    expect(limiter.hit('b', 2000).allowed).toBe(true);
  });

  it('starts a new window once the old one has passed', () => {
    const limiter = new FixedWindowRateLimiter(1, 1000);
    expect(limiter.hit('a', 0).allowed).toBe(true);
    expect(limiter.hit('a', 500).allowed).toBe(false);
    expect(limiter.hit('a', 1000).allowed).toBe(true);
  });

  it('bounds memory by evicting the subject seen least recently', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000, 2);
    limiter.hit('a', 0);
    limiter.hit('b', 0);
    limiter.hit('c', 0);
    // 'a' was evicted, so it starts a fresh window; 'c' is still counted.
    expect(limiter.hit('a', 1).allowed).toBe(true);
    expect(limiter.hit('c', 1).allowed).toBe(false);
  });

  it('keeps a subject whose window renewed, evicting one seen earlier in an older window', () => {
    const limiter = new FixedWindowRateLimiter(1, 1000, 2);
    limiter.hit('a', 0);
    limiter.hit('b', 500);
    limiter.hit('a', 1000); // a's window renews: a is now the newer one
    limiter.hit('c', 1100); // evicts b
    expect(limiter.hit('a', 1200).allowed).toBe(false);
    expect(limiter.hit('b', 1200).allowed).toBe(true);
  });

  it('keeps a subject that keeps calling in its window, a refused one too, evicting one idle since', () => {
    const limiter = new FixedWindowRateLimiter(1, 60_000, 2);
    limiter.hit('attacker', 0);
    limiter.hit('idle', 10);
    expect(limiter.hit('attacker', 20).allowed).toBe(false);
    limiter.hit('newcomer', 30); // evicts idle, not the attacker whose window began first
    expect(limiter.hit('attacker', 40).allowed).toBe(false);
    expect(limiter.hit('idle', 50).allowed).toBe(true);
  });
});
