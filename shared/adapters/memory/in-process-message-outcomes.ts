/**
 * MessageOutcomes within one process: the host's send path notifies, waiting requests (embedded functions, or the
 * host's own RPC handler answering a function in aws mode) resolve. Waiters are keyed by session and message id and
 * removed when they resolve or time out, so nothing accumulates.
 */
import type { MessageOutcomeNotifier, MessageOutcomes } from '#shared/ports/message-outcomes.port.js';

export class InProcessMessageOutcomes implements MessageOutcomes, MessageOutcomeNotifier {
  private readonly waiters = new Map<string, Set<(settled: boolean) => void>>();
  private readonly forwards = new Set<(sessionId: string, messageId: string) => void>();

  settled(
    sessionId: string,
    messageId: string,
    timeoutMs: number,
    alreadySettled?: () => Promise<boolean>,
  ): Promise<boolean> {
    const key = `${sessionId}/${messageId}`;
    return new Promise<boolean>((resolve) => {
      const waiters = this.waiters.get(key) ?? new Set();
      this.waiters.set(key, waiters);
      const done = (settled: boolean) => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(key) === waiters) this.waiters.delete(key);
        resolve(settled);
      };
      waiters.add(done);
      const timer = setTimeout(() => done(false), timeoutMs);
      // Registered first, probed second: a notification between the two is not missed.
      alreadySettled?.().then(
        (settled) => settled && done(true),
        () => undefined,
      );
    });
  }

  notify(sessionId: string, messageId: string): void {
    for (const done of [...(this.waiters.get(`${sessionId}/${messageId}`) ?? [])]) done(true);
    for (const forward of this.forwards) forward(sessionId, messageId);
  }

  /** Also tells `forward` of every settled message (API_THREAD: the API thread's waiters); answers the undo. */
  forwardTo(forward: (sessionId: string, messageId: string) => void): () => void {
    this.forwards.add(forward);
    return () => this.forwards.delete(forward);
  }

  /** Requests waiting now (a gauge for tests and metrics). */
  get waiting(): number {
    let count = 0;
    for (const waiters of this.waiters.values()) count += waiters.size;
    return count;
  }
}
