/**
 * Whether this process is draining: set once when SIGTERM (or SIGINT) arrives, before anything stops. From then on
 * readiness answers 503 with `details.shutdown.status: "draining"` (a load balancer stops sending traffic here) and
 * the API refuses new writes (503 SHUTTING_DOWN, retryable), through REST and MCP tools alike, while reads are still
 * answered and the work already accepted finishes. On Lambda nothing sets it: an instance is never drained that way.
 */
import { UnavailableError } from '#shared/errors/app-error.js';

/** Methods that create nothing: still answered while draining. */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

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

  /**
   * The refusal of an authenticated call to a route of `method` while draining, or null when it may go on. A write
   * is refused before it starts: it would create work (a queued send, a session start) the process is about to stop
   * taking, and a client retries a 503 against another instance or the restarted one. Reads are still answered:
   * they create nothing, and the stores stay open until the API closes.
   */
  writeRefusal(method: string): UnavailableError | null {
    if (!this.began || READ_METHODS.has(method)) return null;
    return new UnavailableError(
      'SHUTTING_DOWN',
      'The gateway is shutting down and takes no new work; retry shortly',
      { headers: { 'retry-after': '5' } },
    );
  }
}
