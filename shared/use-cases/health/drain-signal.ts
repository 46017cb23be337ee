/**
 * Whether this process is draining: set once when SIGTERM (or SIGINT) arrives, before anything stops. From then on
 * readiness answers 503 with `details.shutdown.status: "draining"` (a load balancer stops sending traffic here) and
 * the API refuses new writes (503 SHUTTING_DOWN, retryable), while reads are still answered and the work already
 * accepted finishes. On Lambda nothing sets it: an instance is never drained that way.
 */
export class DrainSignal {
  private began = false;

  /** True once draining began. */
  get draining(): boolean {
    return this.began;
  }

  /** Begins draining (idempotent). */
  begin(): void {
    this.began = true;
  }
}
