/**
 * Opens the embedded queues of one SQLite file: the embedded-mode stand-in for the SQS queues of the AWS mode.
 */
import { ValidationError } from '../../errors/app-error.js';
import type { Clock } from '../../ports/clock.port.js';
import { openSqlite, runMigrations } from '../sqlite/sqlite-database.js';
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

/**
 * Opens (creating and migrating if needed) the SQLite file and answers one queue per definition, named by its
 * key, e.g. `openEmbeddedQueues(file, { commands: { fifo: true, visibilityTimeoutSeconds: 60 } })`.
 */
export function openEmbeddedQueues<Name extends string>(
  file: string,
  definitions: Record<Name, EmbeddedQueueDefinition<NoInfer<Name>>>,
  options: { clock?: Clock } = {},
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
  return {
    queues,
    async close() {
      if (!db.open) return;
      db.close();
      // Pending long polls notice the closed database and answer [].
      for (const queue of Object.values<SqliteQueue>(queues)) queue.notifyWaiters();
    },
  };
}
