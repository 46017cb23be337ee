/**
 * ChatStore over the data SQLite file: one row per (session, chat) in `chats`. `apply` reads each chat, applies the
 * change through applyChatChange and writes the row back, all changes of one call in one transaction on the group
 * commit (a chat change usually comes with the message it describes, whose insert it then commits beside). A
 * session's chats go with its row (ON DELETE CASCADE); a change for an unknown session is a NotFoundError.
 */
import type Database from 'better-sqlite3';
import {
  applyChatChange,
  type ChatChange,
  ChatLastMessage,
  type ChatRecord,
  newChat,
} from '#shared/domain/chat.js';
import type { Page } from '#shared/domain/common.js';
import { NotFoundError } from '#shared/errors/app-error.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import {
  isForeignKeyViolation,
  LazyStatement,
  parseJsonWith,
  runSql,
  toJsonColumn,
  writeSql,
} from './sqlite-store-support.js';

interface ChatRow {
  session_id: string;
  chat_id: string;
  name: string | null;
  unread_count: number;
  marked_unread: number;
  timestamp: number | null;
  last_message: string | null;
  archived: number;
  pinned_at: number | null;
  mute_until: number | null;
}

const STORE = 'Chat store';

function toChat(row: ChatRow): ChatRecord {
  return {
    id: row.chat_id,
    name: row.name,
    unreadCount: row.unread_count,
    markedUnread: row.marked_unread === 1,
    timestamp: row.timestamp,
    lastMessage: parseJsonWith(row.last_message, ChatLastMessage),
    archived: row.archived === 1,
    pinnedAt: row.pinned_at,
    muteUntil: row.mute_until,
  };
}

function toRow(sessionId: string, chat: ChatRecord): ChatRow {
  return {
    session_id: sessionId,
    chat_id: chat.id,
    name: chat.name,
    unread_count: chat.unreadCount,
    marked_unread: chat.markedUnread ? 1 : 0,
    timestamp: chat.timestamp,
    last_message: toJsonColumn(chat.lastMessage),
    archived: chat.archived ? 1 : 0,
    pinned_at: chat.pinnedAt,
    mute_until: chat.muteUntil,
  };
}

/** Chats in SQLite. */
export class SqliteChatStore implements ChatStore {
  private readonly applyTx: Database.Transaction<(sessionId: string, changes: readonly ChatChange[]) => void>;
  private readonly selectOne: LazyStatement<[string, string], ChatRow>;
  private readonly selectPage: LazyStatement<[string, number, number], ChatRow>;
  private readonly deleteOne: LazyStatement<[string, string]>;
  private readonly deleteBySessionId: LazyStatement<[string]>;

  constructor(private readonly db: SqliteDb) {
    this.selectOne = new LazyStatement(db, 'SELECT * FROM chats WHERE session_id = ? AND chat_id = ?');
    const upsert = new LazyStatement<ChatRow>(
      db,
      `INSERT INTO chats (session_id, chat_id, name, unread_count, marked_unread, timestamp, last_message, archived,
         pinned_at, mute_until)
       VALUES (@session_id, @chat_id, @name, @unread_count, @marked_unread, @timestamp, @last_message, @archived,
         @pinned_at, @mute_until)
       ON CONFLICT (session_id, chat_id) DO UPDATE SET name = excluded.name, unread_count = excluded.unread_count,
         marked_unread = excluded.marked_unread, timestamp = excluded.timestamp,
         last_message = excluded.last_message, archived = excluded.archived, pinned_at = excluded.pinned_at,
         mute_until = excluded.mute_until`,
    );
    this.applyTx = db.transaction((sessionId: string, changes: readonly ChatChange[]) => {
      for (const change of changes) {
        const row = this.selectOne.get(sessionId, change.id);
        const current = row === undefined ? newChat(change.id) : toChat(row);
        upsert.run(toRow(sessionId, applyChatChange(current, change)));
      }
    });
    // NULLS LAST is SQLite's own order for DESC; the index (session_id, timestamp DESC, chat_id) serves it.
    this.selectPage = new LazyStatement(
      db,
      `SELECT * FROM chats WHERE session_id = ? ORDER BY timestamp DESC NULLS LAST, chat_id LIMIT ? OFFSET ?`,
    );
    this.deleteOne = new LazyStatement(db, 'DELETE FROM chats WHERE session_id = ? AND chat_id = ?');
    this.deleteBySessionId = new LazyStatement(db, 'DELETE FROM chats WHERE session_id = ?');
  }

  async apply(sessionId: string, changes: readonly ChatChange[]): Promise<void> {
    if (changes.length === 0) return;
    await writeSql(this.db, STORE, () => {
      try {
        this.applyTx.immediate(sessionId, changes);
      } catch (error) {
        // The chats' foreign key points at the session: a change for a session the store does not hold is a 404.
        if (isForeignKeyViolation(error)) {
          throw new NotFoundError(`Session ${sessionId} not found`, { cause: error });
        }
        throw error;
      }
    });
  }

  async findById(sessionId: string, chatId: string): Promise<ChatRecord | null> {
    return runSql(STORE, () => {
      const row = this.selectOne.get(sessionId, chatId);
      return row === undefined ? null : toChat(row);
    });
  }

  async list(sessionId: string, page: Page): Promise<ChatRecord[]> {
    return runSql(STORE, () => this.selectPage.all(sessionId, page.limit, page.offset).map(toChat));
  }

  async delete(sessionId: string, chatId: string): Promise<boolean> {
    return runSql(STORE, () => this.deleteOne.run(sessionId, chatId).changes > 0);
  }

  async deleteBySession(sessionId: string): Promise<number> {
    return runSql(STORE, () => this.deleteBySessionId.run(sessionId).changes);
  }
}
