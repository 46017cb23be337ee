/**
 * Opens the embedded queues of one SQLite file: the embedded-mode stand-in for the SQS queues of the AWS mode.
 */

import { openSqlite, runMigrations } from '#shared/adapters/sqlite/sqlite-database.js';
import { ValidationError } from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import { queueMigrations } from './queue.migrations.js';
import { SqliteQueue } from './sqlite-queue.js';

/** One queue of the file; `deadLetterQueue` names another queue of the same call. */
export interface EmbeddedQueueDefinition<Name extends string = string> {
  fifo: boolean;
  visibilityTimeoutSeconds: number;
  maxReceiveCount?: number;
  deadLetterQueue?: Name;
  pollIntervalMs?: number;
}

/** The opened queues by name, and `close()` for the file. */
export interface EmbeddedQueues<Name extends string> {
  readonly queues: Readonly<Record<Name, SqliteQueue>>;
  close(): Promise<void>;
}

export interface EmbeddedQueuesOptions {
  clock?: Clock;
  /**
   * How often deduplication ids past their 5-minute window are deleted (default 60 s). A FIFO send keeps one row
   * per message for the window, so the table holds about five minutes of sends and no more.
   */
  dedupPruneIntervalMs?: number;
}

const DEDUP_PRUNE_INTERVAL_MS = 60_000;

/**
 * Opens (creating and migrating if needed) the SQLite file and answers one queue per definition, named by its
 * key, e.g. `openEmbeddedQueues(file, { commands: { fifo: true, visibilityTimeoutSeconds: 60 } })`.
 */
export function openEmbeddedQueues<Name extends string>(
  file: string,
  definitions: Record<Name, EmbeddedQueueDefinition<NoInfer<Name>>>,
  options: EmbeddedQueuesOptions = {},
): EmbeddedQueues<Name> {
  const entries = Object.entries(definitions) as [Name, EmbeddedQueueDefinition<Name>][];
  for (const [name, definition] of entries) {
    const dlq = definition.deadLetterQueue;
    if (dlq !== undefined && definitions[dlq]?.fifo !== definition.fifo) {
      throw new ValidationError(`Dead-letter queue ${dlq} of ${name} must be defined here, of the same type`);
    }
  }
  const db = openSqlite(file);
  const queues = {} as Record<Name, SqliteQueue>;
  try {
    runMigrations(db, queueMigrations);
    for (const [name, definition] of entries) {
      queues[name] = new SqliteQueue(db, { name, ...definition, clock: options.clock });
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const prune = setInterval(() => {
    for (const queue of Object.values<SqliteQueue>(queues)) {
      if (!queue.fifo || !db.open) continue;
      try {
        queue.pruneDeduplication();
      } catch {
        // The file was locked past busy_timeout: the next tick prunes what this one could not.
      }
    }
  }, options.dedupPruneIntervalMs ?? DEDUP_PRUNE_INTERVAL_MS);
  prune.unref();
  return {
    queues,
    async close() {
      clearInterval(prune);
      if (!db.open) return;
      db.close();
      // Pending long polls notice the closed database and answer [].
      for (const queue of Object.values<SqliteQueue>(queues)) queue.notifyWaiters();
    },
  };
}
