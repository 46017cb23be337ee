/**
 * The embedded queue: SQS semantics (FIFO groups and deduplication, delay, visibility timeout, receive counts,
 * dead-letter moves, long polling) over the `queue_messages` table, so the gateway runs without AWS and the
 * same code paths work against SQS. Several processes may share the file: every read-then-write runs in an
 * IMMEDIATE transaction, which takes the write lock first, so two consumers never take the same message.
 * Driver errors (a lock held past busy_timeout, a closed file) surface as a retryable UnavailableError.
 */
import {
  checkLocalQueueAttributes,
  checkLocalReceive,
  checkOutgoing,
  checkVisibility,
  DEDUP_WINDOW_MS,
  MAX_BATCH,
} from '#shared/adapters/queue-support.js';
import type { SqliteDb } from '#shared/adapters/sqlite/sqlite-database.js';
import { LazyStatement, runSql, writeSql } from '#shared/adapters/sqlite/sqlite-store-support.js';
import { newRecordId } from '#shared/domain/record-id.js';
import { ValidationError } from '#shared/errors/app-error.js';
import { type Clock, systemClock } from '#shared/ports/clock.port.js';
import type { OutgoingMessage, Queue, ReceivedMessage, ReceiveOptions } from '#shared/ports/queue.port.js';
import { notify, waitForWake, wakeKey } from './queue-wakeups.js';

/** How one queue behaves; the SQS queue attributes of the same names. */
export interface SqliteQueueOptions {
  name: string;
  fifo: boolean;
  /** Default hidden time after a receive (0–43200). */
  visibilityTimeoutSeconds: number;
  /** Receives after which a message goes to `deadLetterQueue` instead of being delivered again. */
  maxReceiveCount?: number;
  /** A queue in the same database file, or its name. */
  deadLetterQueue?: SqliteQueue | string;
  clock?: Clock;
  /** Long polls re-check this often, for messages sent by other processes (default 200). */
  pollIntervalMs?: number;
}

interface MessageRow {
  seq: number;
  id: string;
  body: string;
  group_id: string | null;
  sent_at: number;
  receive_count: number;
}

/** A SQL string literal (quotes doubled), for values fixed when a statement is prepared. */
const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The statements of one queue; FIFO queues gate receives by group. */
function prepareStatements(db: SqliteDb, queue: string, fifo: boolean) {
  // FIFO: a visible message waits while its group has an earlier hidden message (delayed or in flight) or any
  // message in flight, so a group is delivered strictly in order, one batch in flight at a time.
  const groupGate = fifo
    ? `AND NOT EXISTS (SELECT 1 FROM queue_messages b
         WHERE b.queue = m.queue AND b.group_id = m.group_id AND b.visible_at > @now
           AND (b.seq < m.seq OR b.receive_count > 0))`
    : '';
  return {
    insert: new LazyStatement(
      db,
      `INSERT INTO queue_messages (id, queue, body, group_id, dedup_id, sent_at, visible_at)
       VALUES (@id, @queue, @body, @groupId, @dedupId, @sentAt, @visibleAt)`,
    ),
    pruneDedup: new LazyStatement(db, 'DELETE FROM queue_dedup WHERE queue = ? AND expires_at <= ?'),
    // Expired ids are ignored until the scheduled prune removes them, and a new message with one takes its row.
    findDedup: new LazyStatement<[string, string, number], { message_id: string }>(
      db,
      'SELECT message_id FROM queue_dedup WHERE queue = ? AND dedup_id = ? AND expires_at > ?',
    ),
    insertDedup: new LazyStatement(
      db,
      `INSERT INTO queue_dedup (queue, dedup_id, message_id, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (queue, dedup_id) DO UPDATE SET message_id = excluded.message_id, expires_at = excluded.expires_at`,
    ),
    // The queue name and LIMIT are literals: this SQLite is built with STAT4, which re-plans (re-prepares) a
    // statement on every call when a bound value could change its plan, as `queue = ?` beside `ORDER BY … LIMIT`
    // does. A re-plan cost every receive about 5 µs more than its query (an empty receive is the host's idle poll).
    selectVisible: new LazyStatement<{ now: number }, MessageRow>(
      db,
      `SELECT m.seq, m.id, m.body, m.group_id, m.sent_at, m.receive_count FROM queue_messages m
       WHERE m.queue = ${sqlText(queue)} AND m.visible_at <= @now ${groupGate}
       ORDER BY m.seq LIMIT ${MAX_BATCH}`,
    ),
    markReceived: new LazyStatement(
      db,
      `UPDATE queue_messages SET receive_count = receive_count + 1, receipt_handle = ?, visible_at = ?
       WHERE seq = ?`,
    ),
    deleteSeq: new LazyStatement(db, 'DELETE FROM queue_messages WHERE seq = ?'),
    deleteHandle: new LazyStatement(db, 'DELETE FROM queue_messages WHERE queue = ? AND receipt_handle = ?'),
    setVisibleAt: new LazyStatement(
      db,
      'UPDATE queue_messages SET visible_at = ? WHERE queue = ? AND receipt_handle = ?',
    ),
    depth: new LazyStatement<[string], { n: number }>(
      db,
      'SELECT COUNT(*) AS n FROM queue_messages WHERE queue = ?',
    ),
  };
}

/** One named queue in a SQLite file migrated with `queueMigrations`. */
export class SqliteQueue implements Queue {
  readonly name: string;
  readonly fifo: boolean;
  private readonly clock: Clock;
  private readonly visibilityMs: number;
  private readonly maxReceiveCount: number | undefined;
  private readonly deadLetterName: string | undefined;
  private readonly pollIntervalMs: number;
  private readonly key: string;
  /** Names the queue in the 503 that driver errors become. */
  private readonly label: string;
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly sendTx;
  private readonly receiveTx;

  constructor(
    private readonly db: SqliteDb,
    options: SqliteQueueOptions,
  ) {
    this.name = options.name;
    this.fifo = options.fifo;
    this.clock = options.clock ?? systemClock;
    const attributes = checkLocalQueueAttributes(options);
    this.visibilityMs = attributes.visibilityMs;
    this.pollIntervalMs = attributes.pollIntervalMs;
    const dlq = options.deadLetterQueue;
    if (dlq instanceof SqliteQueue && (dlq.db !== db || dlq.fifo !== this.fifo)) {
      throw new ValidationError('The dead-letter queue must be in the same database and of the same type');
    }
    this.maxReceiveCount = options.maxReceiveCount;
    this.deadLetterName = dlq instanceof SqliteQueue ? dlq.name : dlq;
    if (this.deadLetterName === this.name) {
      throw new ValidationError('A queue cannot be its own dead-letter queue');
    }
    this.key = wakeKey(db, this.name);
    this.label = `Queue ${this.name}`;

    this.sql = prepareStatements(db, this.name, this.fifo);
    this.sendTx = db.transaction((message: OutgoingMessage, now: number): string => {
      const dedupId = this.fifo ? message.dedupId : undefined;
      if (dedupId !== undefined) {
        const first = this.sql.findDedup.get(this.name, dedupId, now);
        if (first) return first.message_id;
      }
      const id = newRecordId();
      this.sql.insert.run({
        id,
        queue: this.name,
        body: message.body,
        groupId: message.groupId ?? null,
        dedupId: dedupId ?? null,
        sentAt: now,
        visibleAt: now + (message.delaySeconds ?? 0) * 1000,
      });
      if (dedupId !== undefined) this.sql.insertDedup.run(this.name, dedupId, id, now + DEDUP_WINDOW_MS);
      return id;
    });
    this.receiveTx = db.transaction((max: number, visibilityMs: number) => this.take(max, visibilityMs));
  }

  async send(message: OutgoingMessage): Promise<{ id: string }> {
    checkOutgoing(message, this);
    const id = await writeSql(this.db, this.label, () => this.sendTx.immediate(message, this.nowMs()));
    this.notifyWaiters();
    return { id };
  }

  async receive(options: ReceiveOptions = {}): Promise<ReceivedMessage[]> {
    const { maxMessages: max, visibilityMs, deadline } = checkLocalReceive(options, this.visibilityMs);
    for (;;) {
      // A closed database ends pending long polls quietly, as a shutdown should.
      if (options.signal?.aborted || !this.db.open) return [];
      const { messages, movedToDeadLetter } = this.guard(() => this.receiveTx.immediate(max, visibilityMs));
      if (movedToDeadLetter && this.deadLetterName !== undefined)
        notify(wakeKey(this.db, this.deadLetterName));
      if (messages.length > 0) return messages;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return [];
      await waitForWake(this.key, Math.min(this.pollIntervalMs, remaining), options.signal);
    }
  }

  async delete(receiptHandle: string): Promise<void> {
    // A stale or unknown handle matches no row: a no-op, as SQS answers success there.
    const { changes } = await writeSql(this.db, this.label, () =>
      this.sql.deleteHandle.run(this.name, receiptHandle),
    );
    // Deleting may unblock a FIFO group.
    if (changes > 0 && this.fifo) this.notifyWaiters();
  }

  async changeVisibility(receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void> {
    checkVisibility(visibilityTimeoutSeconds);
    const visibleAt = this.nowMs() + visibilityTimeoutSeconds * 1000;
    const { changes } = this.guard(() => this.sql.setVisibleAt.run(visibleAt, this.name, receiptHandle));
    if (changes === 0) {
      throw new ValidationError('The receipt handle is stale or unknown', { details: { queue: this.name } });
    }
    if (visibilityTimeoutSeconds === 0) this.notifyWaiters();
  }

  async depth(): Promise<number> {
    return this.guard(() => this.sql.depth.get(this.name)?.n ?? 0);
  }

  /**
   * Deletes the deduplication ids whose window has passed (they no longer suppress anything); answers how many.
   * Run on a schedule (openEmbeddedQueues) rather than by every send.
   */
  pruneDeduplication(): number {
    return this.guard(() => this.sql.pruneDedup.run(this.name, this.nowMs()).changes);
  }

  /** Wakes this process's long polls on this queue (after a send, a visibility change or a close). */
  notifyWaiters(): void {
    notify(this.key);
  }

  /** Runs driver work, turning its errors into the AppError hierarchy. */
  private guard<T>(work: () => T): T {
    return runSql(this.label, work);
  }

  private nowMs(): number {
    return this.clock.now().getTime();
  }

  /** Runs inside the receive transaction: marks up to `max` messages received, moving exhausted ones aside. */
  private take(
    max: number,
    visibilityMs: number,
  ): { messages: ReceivedMessage[]; movedToDeadLetter: boolean } {
    const now = this.nowMs();
    const messages: ReceivedMessage[] = [];
    const taken = new Set<number>();
    let movedToDeadLetter = false;
    // A dead-letter move frees a slot (and may unblock its group), so select again until nothing more moves.
    for (let moved = true; moved && messages.length < max; ) {
      moved = false;
      const rows = this.sql.selectVisible.all({ now });
      for (const row of rows) {
        if (messages.length >= max) break;
        // A visibility timeout of 0 leaves a message selectable; never hand it out twice in one answer.
        if (taken.has(row.seq)) continue;
        if (this.maxReceiveCount !== undefined && row.receive_count >= this.maxReceiveCount) {
          this.moveToDeadLetter(row, now);
          moved = true;
          movedToDeadLetter = true;
          continue;
        }
        const receiptHandle = newRecordId();
        this.sql.markReceived.run(receiptHandle, now + visibilityMs, row.seq);
        taken.add(row.seq);
        messages.push({
          id: row.id,
          receiptHandle,
          body: row.body,
          groupId: row.group_id,
          receiveCount: row.receive_count + 1,
        });
      }
    }
    return { messages, movedToDeadLetter };
  }

  private moveToDeadLetter(row: MessageRow, now: number): void {
    if (this.deadLetterName === undefined) return;
    // Delete and insert rather than update, so the message takes its arrival place at the end of the DLQ.
    this.sql.deleteSeq.run(row.seq);
    this.sql.insert.run({
      id: row.id,
      queue: this.deadLetterName,
      body: row.body,
      groupId: row.group_id,
      dedupId: null,
      sentAt: row.sent_at,
      visibleAt: now,
    });
  }
}
