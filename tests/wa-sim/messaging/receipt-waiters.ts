/** The receipts the server itself waits for; `receipts.ts` settles them as the client's receipts arrive. */
import type { ClientConnection } from '#tests/wa-sim/accounts/accounts.js';

/** Promises for receipts the server itself waits on (the phone's post-link messages). */
export class ReceiptWaiters {
  private readonly waiting = new Map<string, () => void>();

  /** Resolves when `connection` sends a receipt for `id`; rejects after `timeoutMs` or when it closes. */
  wait(connection: ClientConnection, id: string, timeoutMs: number): Promise<void> {
    const key = `${connection.id}/${id}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        reject(new Error(`no receipt for ${id}`));
      }, timeoutMs);
      this.waiting.set(key, () => {
        clearTimeout(timer);
        resolve();
      });
      connection.onClosed(() => {
        if (!this.waiting.delete(key)) return;
        clearTimeout(timer);
        reject(new Error('connection closed'));
      });
    });
  }

  /** Settles the waiter for `id` on `connection`, if any. */
  settle(connection: ClientConnection, id: string): void {
    const key = `${connection.id}/${id}`;
    const done = this.waiting.get(key);
    if (!done) return;
    this.waiting.delete(key);
    done();
  }
}
