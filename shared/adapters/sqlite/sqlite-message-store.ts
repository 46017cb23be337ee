/**
 * MessageStore over the data SQLite file. Insert, the network-id lookup and the status advance run for every
 * inbound message and acknowledgement, so their statements are prepared once; `advanceStatus` reads and writes in
 * one IMMEDIATE transaction, so two acks racing (also across processes) never move a status backwards. History pages
 * and search are read by sqlite-message-reads.ts; the search index follows the table through triggers (migration
 * 0010), so no write here has to know about it.
 */
import type Database from 'better-sqlite3';
import type { Page } from '#shared/domain/common.js';
import type { Message, MessageStatus } from '#shared/domain/message.js';
import { isStatusAdvance } from '#shared/domain/message.js';
import { applyMessageChange, type MessageChange } from '#shared/domain/message-changes.js';
import { ConflictError, NotFoundError } from '#shared/errors/app-error.js';
import type { OutboxEntryFor, OutboxEntryOf } from '#shared/ports/event-outbox.port.js';
import type {
  ContentChange,
  MessageFilter,
  MessageScanPage,
  MessageSearch,
  MessageSearchPage,
  MessageStore,
  OutboxEntryOfChange,
  StatusChange,
} from '#shared/ports/message-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { SqliteOutboxWriter } from './sqlite-event-outbox.js';
import { SqliteMessageReads } from './sqlite-message-reads.js';
import { type MessageRow, toMessage, toRow } from './sqlite-message-rows.js';
import { isForeignKeyViolation, LazyStatement, runSql, writeSql } from './sqlite-store-support.js';

type AdvanceFn = (
  sessionId: string,
  waMessageId: string,
  status: MessageStatus,
  timestamp: number | undefined,
  outbox: OutboxEntryOf | undefined,
) => StatusChange;
type ChangeFn = (
  sessionId: string,
  waMessageId: string,
  change: MessageChange,
  outbox: OutboxEntryOfChange | undefined,
) => ContentChange;
type InsertFn = (message: Message, outbox: OutboxEntryFor | undefined) => boolean;

const STORE = 'Message store';

function duplicateId(target: string): ConflictError {
  return target.startsWith('event_outbox.')
    ? new ConflictError('CONFLICT', 'An outbox entry with this id already exists')
    : new ConflictError('CONFLICT', 'A message with this id already exists');
}

/** Messages in SQLite, unique by (session, network id) when the network id is set. */
export class SqliteMessageStore implements MessageStore {
  private readonly insertRow: LazyStatement<MessageRow>;
  private readonly selectById: LazyStatement<[string, string], MessageRow>;
  private readonly selectByWaId: LazyStatement<[string, string], MessageRow>;
  private readonly updateStatus: LazyStatement<[string, number | null, string]>;
  private readonly updateStatusOnly: LazyStatement<[string, string]>;
  private readonly fillTimestamp: LazyStatement<[number, string]>;
  private readonly deleteBySessionId: LazyStatement<[string]>;
  private readonly deleteByChatId: LazyStatement<[string, string], string | null>;
  private readonly selectChat: LazyStatement<[string, string], number>;
  private readonly updateContent: LazyStatement<MessageRow>;
  private readonly changeTx: Database.Transaction<ChangeFn>;
  private readonly advanceTx: Database.Transaction<AdvanceFn>;
  private readonly insertTx: Database.Transaction<InsertFn>;
  private readonly reads: SqliteMessageReads;

  constructor(
    private readonly db: SqliteDb,
    private readonly outbox: SqliteOutboxWriter = new SqliteOutboxWriter(db),
  ) {
    // Targeted at the network id only: a duplicate primary key is a bug and still fails loudly.
    this.insertRow = new LazyStatement(
      db,
      `INSERT INTO messages (id, session_id, wa_message_id, chat_id, chat_name, author, from_jid, to_jid, body,
         type, direction, timestamp, metadata, status, media_path, media_mimetype, created_at)
       VALUES (@id, @session_id, @wa_message_id, @chat_id, @chat_name, @author, @from_jid, @to_jid, @body,
         @type, @direction, @timestamp, @metadata, @status, @media_path, @media_mimetype, @created_at)
       ON CONFLICT (session_id, wa_message_id) DO NOTHING`,
    );
    this.selectById = new LazyStatement(db, 'SELECT * FROM messages WHERE session_id = ? AND id = ?');
    this.selectByWaId = new LazyStatement(
      db,
      'SELECT * FROM messages WHERE session_id = ? AND wa_message_id = ?',
    );
    this.updateStatus = new LazyStatement(db, 'UPDATE messages SET status = ?, timestamp = ? WHERE id = ?');
    this.updateStatusOnly = new LazyStatement(db, 'UPDATE messages SET status = ? WHERE id = ?');
    this.fillTimestamp = new LazyStatement(
      db,
      'UPDATE messages SET timestamp = ? WHERE id = ? AND timestamp IS NULL',
    );
    this.deleteBySessionId = new LazyStatement(db, 'DELETE FROM messages WHERE session_id = ?');
    // One statement is one transaction: the rows, their search index entries and history counts (both kept by
    // triggers) go together, and RETURNING names exactly the media of the rows it removed, with no window between a
    // read of the paths and the delete in which another process could add a row.
    this.deleteByChatId = new LazyStatement<[string, string], string | null>(
      db,
      'DELETE FROM messages WHERE session_id = ? AND chat_id = ? RETURNING media_path',
      true,
    );
    this.selectChat = new LazyStatement<[string, string], number>(
      db,
      'SELECT 1 FROM messages WHERE session_id = ? AND chat_id = ? LIMIT 1',
      true,
    );
    this.updateContent = new LazyStatement(
      db,
      `UPDATE messages SET type = @type, body = @body, metadata = @metadata, media_path = @media_path,
         media_mimetype = @media_mimetype WHERE id = @id`,
    );
    // Read, judge and write in one IMMEDIATE transaction: two changes of one row (a reaction and an edit) never
    // overwrite each other, also across processes.
    this.changeTx = db.transaction(
      (
        sessionId: string,
        waMessageId: string,
        change: MessageChange,
        outbox: OutboxEntryOfChange | undefined,
      ) => {
        const row = this.selectByWaId.get(sessionId, waMessageId);
        if (row === undefined) return { outcome: 'not_found' };
        const previous = toMessage(row);
        const message = applyMessageChange(previous, change);
        if (!message) return { outcome: 'unchanged', message: previous };
        this.updateContent.run(toRow(message));
        const entry = outbox?.({ message, previous });
        if (entry) this.outbox.writeEntry(entry);
        return { outcome: 'updated', message, previous };
      },
    );
    this.reads = new SqliteMessageReads(db);
    this.advanceTx = db.transaction(
      (
        sessionId: string,
        waMessageId: string,
        status: MessageStatus,
        timestamp: number | undefined,
        outbox: OutboxEntryOf | undefined,
      ) => this.advanceInTransaction(sessionId, waMessageId, status, timestamp, outbox),
    );
    // The row and its event commit together or not at all; a duplicate network id writes neither.
    this.insertTx = db.transaction((message: Message, outbox: OutboxEntryFor | undefined) => {
      if (this.insertRow.run(toRow(message)).changes === 0) return false;
      if (outbox) this.outbox.writeEntry(outbox(message));
      return true;
    });
  }

  async insert(message: Message, outbox?: OutboxEntryFor): Promise<boolean> {
    return writeSql(
      this.db,
      STORE,
      () => {
        try {
          return outbox
            ? this.insertTx.immediate(message, outbox)
            : this.insertRow.run(toRow(message)).changes > 0;
        } catch (error) {
          if (isForeignKeyViolation(error)) {
            throw new NotFoundError(`Session ${message.sessionId} not found`, { cause: error });
          }
          throw error;
        }
      },
      duplicateId,
    );
  }

  async findById(sessionId: string, id: string): Promise<Message | null> {
    return runSql(STORE, () => {
      const row = this.selectById.get(sessionId, id);
      return row === undefined ? null : toMessage(row);
    });
  }

  async findByWaMessageId(sessionId: string, waMessageId: string): Promise<Message | null> {
    return runSql(STORE, () => {
      const row = this.selectByWaId.get(sessionId, waMessageId);
      return row === undefined ? null : toMessage(row);
    });
  }

  async hasChat(sessionId: string, chatId: string): Promise<boolean> {
    return runSql(STORE, () => this.selectChat.get(sessionId, chatId) !== undefined);
  }

  async list(filter: MessageFilter, page: Page): Promise<{ messages: Message[]; total: number }> {
    return runSql(STORE, () => this.reads.list(filter, page));
  }

  async search(search: MessageSearch, page: Page): Promise<MessageSearchPage> {
    return runSql(STORE, () => this.reads.search(search, page));
  }

  async scan(after: string | null, limit: number): Promise<MessageScanPage> {
    return runSql(STORE, () => this.reads.scan(after, limit));
  }

  async advanceStatus(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp?: number,
    outbox?: OutboxEntryOf,
  ): Promise<StatusChange> {
    return writeSql(
      this.db,
      STORE,
      () => this.advanceTx.immediate(sessionId, waMessageId, status, timestamp, outbox),
      duplicateId,
    );
  }

  async applyChange(
    sessionId: string,
    waMessageId: string,
    change: MessageChange,
    outbox?: OutboxEntryOfChange,
  ): Promise<ContentChange> {
    return writeSql(
      this.db,
      STORE,
      () => this.changeTx.immediate(sessionId, waMessageId, change, outbox),
      duplicateId,
    );
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return runSql(STORE, () => this.deleteBySessionId.run(sessionId).changes);
  }

  /**
   * In the group commit, after the writes queued before it: a chat cleared on the account arrives among the inserts
   * of that chat's messages, and must not run ahead of one still waiting to commit.
   */
  async deleteByChat(sessionId: string, chatId: string): Promise<string[]> {
    const paths = await writeSql(this.db, STORE, () => this.deleteByChatId.all(sessionId, chatId));
    return paths.filter((path): path is string => path !== null);
  }

  private advanceInTransaction(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp: number | undefined,
    outbox: OutboxEntryOf | undefined,
  ): StatusChange {
    const change = this.changeInTransaction(sessionId, waMessageId, status, timestamp);
    if (outbox && change.outcome !== 'not_found') {
      const entry = outbox(change);
      if (entry) this.outbox.writeEntry(entry);
    }
    return change;
  }

  private changeInTransaction(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp: number | undefined,
  ): StatusChange {
    const row = this.selectByWaId.get(sessionId, waMessageId);
    if (row === undefined) return { outcome: 'not_found' };
    const current = toMessage(row);
    if (!isStatusAdvance(current.status, status)) {
      if (timestamp === undefined || current.timestamp !== null)
        return { outcome: 'unchanged', message: current };
      this.fillTimestamp.run(timestamp, current.id);
      return { outcome: 'unchanged', message: { ...current, timestamp } };
    }
    // Without a timestamp to fill, the status alone: a SET that names `timestamp` rewrites its four indexes' entries.
    if (current.timestamp !== null || timestamp === undefined) this.updateStatusOnly.run(status, current.id);
    else this.updateStatus.run(status, timestamp, current.id);
    return {
      outcome: 'updated',
      message: { ...current, status, timestamp: current.timestamp ?? timestamp ?? null },
    };
  }
}
