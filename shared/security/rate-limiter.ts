/**
 * Fixed-window request counter per subject (client IP). Memory is bounded: past `maxKeys` subjects the one whose
 * window began longest ago is evicted (a Map keeps insertion order, and a subject is re-inserted when its window
 * renews: an approximate least-recently-seen order that costs no Map write on the other hits of a window).
 */
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  hit(subject: string, nowMs: number): RateDecision {
    let window = this.windows.get(subject);
    if (!window || nowMs - window.start >= this.windowMs) {
      window = { start: nowMs, count: 0 };
      this.windows.delete(subject);
      this.windows.set(subject, window);
      if (this.windows.size > this.maxKeys) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
    }
    window.count += 1;
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - nowMs) / 1000));
    return { allowed: window.count <= this.max, retryAfterSeconds };
  }
}
