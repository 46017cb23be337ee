/**
 * Fixed-window request counter per subject (a client IP, a key). Memory is bounded: past `maxKeys` subjects the one
 * seen least recently is evicted (a Map keeps insertion order and every hit moves its subject to the end), so a flood
 * of new subjects evicts idle ones, never one that keeps calling: a caller being refused cannot win a fresh window by
 * having its entry pushed out.
 */
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private max: number,
    private windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  /** New limits, from the next hit on (a run-time setting changed); windows already open keep their start. */
  configure(max: number, windowMs: number): void {
    this.max = max;
    this.windowMs = windowMs;
  }

  hit(subject: string, nowMs: number): RateDecision {
    let window = this.windows.get(subject);
    if (!window || nowMs - window.start >= this.windowMs) window = { start: nowMs, count: 0 };
    this.windows.delete(subject);
    this.windows.set(subject, window);
    if (this.windows.size > this.maxKeys) {
      const leastRecent = this.windows.keys().next().value;
      if (leastRecent !== undefined) this.windows.delete(leastRecent);
    }
    window.count += 1;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - nowMs) / 1000));
    return { allowed: window.count <= this.max, retryAfterSeconds };
  }
}
