/**
 * The message batches running on this host: at most one run per batch here, started by a `batch.run` command or
 * when the host launches a session (after a restart, an adoption, or a start of a stopped session) whose batches are
 * unfinished; stopped with the host, leaving each batch where it got to for the next run.
 */
import type { Logger } from '#shared/ports/logger.port.js';
import { type BatchRunEnd, type BatchRunnerDeps, runBatch } from './batch-runner.js';

export class HostBatches {
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly logger: Logger;

  constructor(private readonly deps: BatchRunnerDeps) {
    this.logger = deps.send.logger;
  }

  /** Runs the batch here unless it runs here already; the caller checked that the session runs here. */
  run(sessionId: string, batchId: string): void {
    const key = `${sessionId}/${batchId}`;
    if (this.stopping.signal.aborted || this.running.has(key)) return;
    const run = runBatch(this.deps, sessionId, batchId, this.stopping.signal)
      .catch((error: unknown): BatchRunEnd | null => {
        // Left where it got to: the next launch of the session (or restart of the host) resumes it.
        this.logger.error(
          { err: error, sessionId, batchId },
          'batch run failed; it resumes with its session',
        );
        return null;
      })
      .then((end) => {
        this.running.delete(key);
        // Paused because its session left this host; if the session is back already (a quick stop and start), the
        // launch's resume found this run still going and stood aside, so the batch goes on now.
        if (end === 'paused' && this.deps.isLocal(sessionId)) this.run(sessionId, batchId);
      });
    this.running.set(key, run);
  }

  /** Runs the session's unfinished batches (its engine was just launched here). Never rejects. */
  async resume(sessionId: string): Promise<void> {
    try {
      const batches = await this.deps.send.data.batches.listUnfinished(sessionId);
      for (const batch of batches) this.run(sessionId, batch.batchId);
      if (batches.length > 0) this.logger.info({ sessionId, batches: batches.length }, 'batches resumed');
    } catch (error) {
      this.logger.error({ err: error, sessionId }, 'unfinished batches could not be listed');
    }
  }

  /** Stops every run between two steps and waits for them; the batches stay as stored. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.running.values()]);
  }
}
