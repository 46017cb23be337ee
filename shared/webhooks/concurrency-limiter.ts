/**
 * Bounded concurrency with a bounded waiting line (inline webhook dispatch: 16 at a time, 1000 waiting). A task that
 * finds the line full, or arrives after close, is refused at once with the reason, so the caller can record it (a
 * delivery failure with 0 attempts) instead of piling up memory. Closing refuses the tasks still waiting.
 */
export class LimiterRefusal extends Error {
  constructor(readonly reason: 'queue full' | 'closed') {
    super(`ConcurrencyLimiter ${reason}`);
  }
}

export class ConcurrencyLimiter {
  private active = 0;
  private closed = false;
  private readonly waiting: { start: () => void; refuse: (error: LimiterRefusal) => void }[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  /** Runs `task` when a slot is free; rejects with LimiterRefusal when the line is full or the limiter closed. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Tasks running and waiting. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** Refuses the tasks still waiting and every later one; running tasks finish. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.refuse(new LimiterRefusal('closed'));
  }

  private acquire(): Promise<void> {
    if (this.closed) return Promise.reject(new LimiterRefusal('closed'));
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new LimiterRefusal('queue full'));
    return new Promise<void>((start, refuse) => {
      this.waiting.push({
        start: () => {
          this.active++;
          start();
        },
        refuse,
      });
    });
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.start();
  }
}
