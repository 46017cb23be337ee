/** The process lifecycle of the entry points: run until SIGINT or SIGTERM, then close within a grace period. */

/**
 * On the first SIGINT/SIGTERM, says so, closes, and exits 0 (1 when closing fails or outlasts `graceMs` plus ten
 * seconds).
 */
export function runUntilSignal(close: () => Promise<void>, graceMs: number): void {
  const shutdown = (signal: string) => {
    process.stdout.write(`\n${signal} received, shutting down…\n`);
    const force = setTimeout(() => process.exit(1), graceMs + 10_000);
    force.unref();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
