/**
 * Schema of the embedded queue. One table holds the messages of every queue in the file, keyed by queue name;
 * a second table remembers FIFO deduplication ids for their 5-minute window, apart from the messages, because
 * SQS drops a repeated id even after the first message was deleted.
 */
import type { Migration } from '#shared/adapters/sqlite/sqlite-database.js';

/** Migrations for `queue_messages` and `queue_dedup`; ids are prefixed so they can share a file with others. */
export const queueMigrations: readonly Migration[] = [
  {
    id: 'queue-0001-messages',
    up(db) {
      db.exec(`
        CREATE TABLE queue_messages (
          -- Arrival order: receive answers oldest first and FIFO groups are ordered by it.
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          queue TEXT NOT NULL,
          body TEXT NOT NULL,
          group_id TEXT,
          dedup_id TEXT,
          sent_at INTEGER NOT NULL,
          -- Epoch ms from which the message may be received: the delay, then each visibility timeout.
          visible_at INTEGER NOT NULL,
          -- In flight = receive_count > 0 AND visible_at > now; a delayed message is hidden but not in flight.
          receive_count INTEGER NOT NULL DEFAULT 0,
          -- The handle of the latest receive only, so an older handle no longer matches.
          receipt_handle TEXT UNIQUE
        );
        -- Receive scans a queue in arrival order, skipping the few hidden messages at its head.
        CREATE INDEX queue_messages_order ON queue_messages (queue, seq);
        -- FIFO blocking looks up the hidden messages of one group.
        CREATE INDEX queue_messages_group ON queue_messages (queue, group_id, visible_at);
        CREATE TABLE queue_dedup (
          queue TEXT NOT NULL,
          dedup_id TEXT NOT NULL,
          message_id TEXT NOT NULL,
          expires_at INTEGER NOT NULL,
          PRIMARY KEY (queue, dedup_id)
        ) WITHOUT ROWID;
        CREATE INDEX queue_dedup_expiry ON queue_dedup (queue, expires_at);
      `);
    },
  },
];
