/**
 * EventOutbox over the data SQLite file. Entries live in `event_outbox` beside the rows they describe, so the
 * message store writes an entry in the same transaction as its message (`writeEntry`, called inside its own
 * transaction). `due_at` is when the entry becomes claimable by a sweep: its creation, then its last claim.
 */
import type Database from 'better-sqlite3';
import { parseGatewayEvent } from '#shared/domain/events.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type {
  EventOutbox,
  OutboxEntry,
  OutboxPage,
  StoredOutboxEntry,
} from '#shared/ports/event-outbox.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { LazyStatement, runSql, writeSql } from './sqlite-store-support.js';

const STORE = 'Event outbox';

interface OutboxRow {
  id: string;
  event: string;
  created_at: string;
}

type ClaimFn = (olderThan: string, now: string, limit: number) => OutboxRow[];

const taken = () => new ConflictError('CONFLICT', 'An outbox entry with this id already exists');

function toEntry(row: OutboxRow): OutboxEntry {
  return { id: row.id, event: parseGatewayEvent(JSON.parse(row.event)), createdAt: row.created_at };
}

/** Writes one entry on the caller's connection, inside whatever transaction the caller holds. */
export class SqliteOutboxWriter {
  private readonly insertRow: LazyStatement<[string, string, string, string, string]>;

  constructor(db: SqliteDb) {
    this.insertRow = new LazyStatement(
      db,
      'INSERT INTO event_outbox (id, session_id, event, created_at, due_at) VALUES (?, ?, ?, ?, ?)',
    );
  }

  writeEntry(entry: OutboxEntry): void {
    this.insertRow.run(
      entry.id,
      entry.event.sessionId,
      JSON.stringify(entry.event),
      entry.createdAt,
      entry.createdAt,
    );
  }
}

/** An entry as stored: claimed when its due time moved past its creation. */
function toStoredEntry(row: OutboxRow & { due_at: string }): StoredOutboxEntry {
  return { ...toEntry(row), claimedAt: row.due_at === row.created_at ? null : row.due_at };
}

export class SqliteEventOutbox implements EventOutbox {
  private readonly scanRows: LazyStatement<[string, number], OutboxRow & { due_at: string }>;
  private readonly restoreTx: Database.Transaction<(entries: readonly StoredOutboxEntry[]) => void>;
  private readonly appendTx: Database.Transaction<(entries: readonly OutboxEntry[]) => void>;
  private readonly claimTx: Database.Transaction<ClaimFn>;
  private readonly completeTx: Database.Transaction<(ids: readonly string[]) => void>;
  private readonly countRows: LazyStatement<[], { total: number }>;

  constructor(
    private readonly db: SqliteDb,
    private readonly writer: SqliteOutboxWriter = new SqliteOutboxWriter(db),
  ) {
    this.appendTx = db.transaction((entries) => {
      for (const entry of entries) this.writer.writeEntry(entry);
    });
    const stale = new LazyStatement<[string, number], OutboxRow & { rowid: number }>(
      db,
      'SELECT rowid, id, event, created_at FROM event_outbox WHERE due_at < ? ORDER BY due_at, id LIMIT ?',
    );
    const claim = new LazyStatement<[string, number]>(
      db,
      'UPDATE event_outbox SET due_at = ? WHERE rowid = ?',
    );
    this.claimTx = db.transaction((olderThan, now, limit) => {
      const rows = stale.all(olderThan, limit);
      for (const row of rows) claim.run(now, row.rowid);
      return rows;
    });
    const deleteRow = new LazyStatement<[string]>(db, 'DELETE FROM event_outbox WHERE id = ?');
    // The relay removes what settled in one turn of the event loop together: one commit, not one per entry.
    this.completeTx = db.transaction((ids) => {
      for (const id of ids) deleteRow.run(id);
    });
    this.countRows = new LazyStatement(db, 'SELECT COUNT(*) AS total FROM event_outbox');
    this.scanRows = new LazyStatement(
      db,
      'SELECT id, event, created_at, due_at FROM event_outbox WHERE id > ? ORDER BY id LIMIT ?',
    );
    const replace = new LazyStatement<[string, string, string, string, string]>(
      db,
      'INSERT OR REPLACE INTO event_outbox (id, session_id, event, created_at, due_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.restoreTx = db.transaction((entries) => {
      for (const { id, event, createdAt, claimedAt } of entries)
        replace.run(id, event.sessionId, JSON.stringify(event), createdAt, claimedAt ?? createdAt);
    });
  }

  async scan(after: string | null, limit: number): Promise<OutboxPage> {
    const rows = runSql(STORE, () => this.scanRows.all(after ?? '', limit));
    const last = rows.at(-1);
    return { entries: rows.map(toStoredEntry), next: rows.length === limit && last ? last.id : null };
  }

  async restore(entries: readonly StoredOutboxEntry[]): Promise<void> {
    await writeSql(this.db, STORE, () => this.restoreTx.immediate(entries));
  }

  async append(entries: readonly OutboxEntry[]): Promise<void> {
    await writeSql(this.db, STORE, () => this.appendTx.immediate(entries), taken);
  }

  async claimStale(options: { olderThan: Date; now: Date; limit: number }): Promise<OutboxEntry[]> {
    const { olderThan, now, limit } = options;
    const rows = runSql(STORE, () =>
      this.claimTx.immediate(olderThan.toISOString(), now.toISOString(), limit),
    );
    return rows.map(toEntry);
  }

  async complete(ids: readonly string[]): Promise<void> {
    await writeSql(this.db, STORE, () => this.completeTx.immediate(ids));
  }

  async count(): Promise<number> {
    return runSql(STORE, () => this.countRows.get()?.total ?? 0);
  }
}
