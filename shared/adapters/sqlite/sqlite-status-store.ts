/**
 * StatusStore over the data SQLite file: one row per (session, status) in `status_updates`, written with its
 * `status.received` outbox entry in one transaction on the group commit. Reads filter out what expired; the rows
 * themselves go through `deleteExpired` (the host's hourly sweep) or with their session (ON DELETE CASCADE).
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Page } from '#shared/domain/common.js';
import { MediaMetadata } from '#shared/domain/message-metadata.js';
import { type StatusRecord, StatusType } from '#shared/domain/status-update.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { StatusQuery, StatusStore } from '#shared/ports/status-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { SqliteOutboxWriter } from './sqlite-event-outbox.js';
import {
  isForeignKeyViolation,
  LazyStatement,
  parseJsonWith,
  runSql,
  toJsonColumn,
  writeSql,
} from './sqlite-store-support.js';

interface StatusRow {
  session_id: string;
  status_id: string;
  contact_id: string;
  push_name: string | null;
  from_me: number;
  type: string;
  text: string | null;
  caption: string | null;
  background_color: string | null;
  font: number | null;
  media: string | null;
  media_path: string | null;
  recipients: string;
  posted_at: number;
  expires_at: number;
}

const STORE = 'Status store';
const Recipients = z.array(z.string());

function toStatus(row: StatusRow): StatusRecord {
  return {
    sessionId: row.session_id,
    statusId: row.status_id,
    contactId: row.contact_id,
    pushName: row.push_name,
    fromMe: row.from_me === 1,
    type: StatusType.catch('text').parse(row.type),
    text: row.text,
    caption: row.caption,
    backgroundColor: row.background_color,
    font: row.font,
    media: parseJsonWith(row.media, MediaMetadata),
    mediaPath: row.media_path,
    recipients: parseJsonWith(row.recipients, Recipients) ?? [],
    postedAt: row.posted_at,
    expiresAt: row.expires_at,
  };
}

function toRow(status: StatusRecord): StatusRow {
  return {
    session_id: status.sessionId,
    status_id: status.statusId,
    contact_id: status.contactId,
    push_name: status.pushName,
    from_me: status.fromMe ? 1 : 0,
    type: status.type,
    text: status.text,
    caption: status.caption,
    background_color: status.backgroundColor,
    font: status.font,
    media: toJsonColumn(status.media),
    media_path: status.mediaPath,
    recipients: JSON.stringify(status.recipients),
    posted_at: status.postedAt,
    expires_at: status.expiresAt,
  };
}

interface PageParams {
  session: string;
  now: number;
  /** A JSON list of poster ids, or null for every poster. */
  posters: string | null;
  limit: number;
  offset: number;
}

type InsertFn = (
  status: StatusRecord,
  outbox: ((status: StatusRecord) => OutboxEntry) | undefined,
) => boolean;

/** Status updates in SQLite. */
export class SqliteStatusStore implements StatusStore {
  private readonly insertTx: Database.Transaction<InsertFn>;
  private readonly selectOne: LazyStatement<[string, string, number], StatusRow>;
  private readonly deleteTx: Database.Transaction<
    (sessionId: string, statusId: string) => StatusRow | undefined
  >;
  private readonly expireTx: Database.Transaction<(now: number, limit: number) => StatusRow[]>;
  private readonly deleteBySessionId: LazyStatement<[string]>;
  private readonly selectPage: LazyStatement<PageParams, StatusRow>;

  constructor(
    private readonly db: SqliteDb,
    outbox: SqliteOutboxWriter = new SqliteOutboxWriter(db),
  ) {
    const insertRow = new LazyStatement<StatusRow>(
      db,
      `INSERT INTO status_updates (session_id, status_id, contact_id, push_name, from_me, type, text, caption,
         background_color, font, media, media_path, recipients, posted_at, expires_at)
       VALUES (@session_id, @status_id, @contact_id, @push_name, @from_me, @type, @text, @caption,
         @background_color, @font, @media, @media_path, @recipients, @posted_at, @expires_at)
       ON CONFLICT (session_id, status_id) DO NOTHING`,
    );
    this.insertTx = db.transaction((status: StatusRecord, entryOf) => {
      if (insertRow.run(toRow(status)).changes === 0) return false;
      if (entryOf) outbox.writeEntry(entryOf(status));
      return true;
    });
    this.selectOne = new LazyStatement(
      db,
      'SELECT * FROM status_updates WHERE session_id = ? AND status_id = ? AND expires_at > ?',
    );
    const selectAny = new LazyStatement<[string, string], StatusRow>(
      db,
      'SELECT * FROM status_updates WHERE session_id = ? AND status_id = ?',
    );
    const deleteOne = new LazyStatement<[string, string]>(
      db,
      'DELETE FROM status_updates WHERE session_id = ? AND status_id = ?',
    );
    this.deleteTx = db.transaction((sessionId: string, statusId: string) => {
      const row = selectAny.get(sessionId, statusId);
      if (row) deleteOne.run(sessionId, statusId);
      return row;
    });
    const selectExpired = new LazyStatement<[number, number], StatusRow>(
      db,
      'SELECT * FROM status_updates WHERE expires_at <= ? LIMIT ?',
    );
    this.expireTx = db.transaction((now: number, limit: number) => {
      const rows = selectExpired.all(now, limit);
      for (const row of rows) deleteOne.run(row.session_id, row.status_id);
      return rows;
    });
    // The order index serves the page; a poster filter reads the session's shown statuses and keeps theirs.
    this.selectPage = new LazyStatement(
      db,
      `SELECT * FROM status_updates WHERE session_id = @session AND expires_at > @now
         AND (@posters IS NULL OR contact_id IN (SELECT value FROM json_each(@posters)))
       ORDER BY posted_at DESC, status_id LIMIT @limit OFFSET @offset`,
    );
    this.deleteBySessionId = new LazyStatement(db, 'DELETE FROM status_updates WHERE session_id = ?');
  }

  async insert(status: StatusRecord, outbox?: (status: StatusRecord) => OutboxEntry): Promise<boolean> {
    return writeSql(this.db, STORE, () => {
      try {
        return this.insertTx.immediate(status, outbox);
      } catch (error) {
        // The rows' foreign key points at the session: a status for a session the store does not hold is a 404.
        if (isForeignKeyViolation(error)) {
          throw new NotFoundError(`Session ${status.sessionId} not found`, { cause: error });
        }
        throw error;
      }
    });
  }

  async find(sessionId: string, statusId: string, now: number): Promise<StatusRecord | null> {
    return runSql(STORE, () => {
      const row = this.selectOne.get(sessionId, statusId, now);
      return row === undefined ? null : toStatus(row);
    });
  }

  async list(query: StatusQuery, page: Page): Promise<StatusRecord[]> {
    const posters = query.contactId === undefined ? null : JSON.stringify(query.contactId);
    return runSql(STORE, () =>
      this.selectPage
        .all({ session: query.sessionId, now: query.now, posters, limit: page.limit, offset: page.offset })
        .map(toStatus),
    );
  }

  async delete(sessionId: string, statusId: string): Promise<StatusRecord | null> {
    return writeSql(this.db, STORE, () => {
      const row = this.deleteTx.immediate(sessionId, statusId);
      return row === undefined ? null : toStatus(row);
    });
  }

  async deleteExpired(now: number, limit: number): Promise<StatusRecord[]> {
    return writeSql(this.db, STORE, () => this.expireTx.immediate(now, limit).map(toStatus));
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return runSql(STORE, () => this.deleteBySessionId.run(sessionId).changes);
  }
}
