/**
 * The message store's reads of many rows: history pages and full-text search. Both pick the page's rows by their
 * rowids from an index first and read only those rows, so neither a deep offset nor a common search term reads
 * rows it does not answer with; a history total is a sum of kept counts; each runs in one read transaction, so a
 * page and its total share a snapshot.
 */
import type Database from 'better-sqlite3';
import type { Page } from '#shared/domain/common.js';
import type { Message } from '#shared/domain/message.js';
import type { SearchTerm } from '#shared/domain/message-search.js';
import {
  filterIds,
  type MessageFilter,
  type MessageScanPage,
  type MessageSearch,
  type MessageSearchPage,
} from '#shared/ports/message-store.port.js';
import type { SqliteDb } from './sqlite-database.js';
import { type MessageRow, toMessage } from './sqlite-message-rows.js';
import { LazyStatement, StatementCache } from './sqlite-store-support.js';

type ListFn = (filter: MessageFilter, page: Page) => { messages: Message[]; total: number };
type SearchFn = (search: MessageSearch, page: Page) => MessageSearchPage;

/** The list order; every list index ends in these columns, so SQLite reads pages in index order. */
const ORDER = 'ORDER BY timestamp DESC, created_at DESC, id DESC';

/**
 * The matches of a filter as disjoint WHERE clauses, each one range of one index in the list order. A sender filter
 * means `from_jid` or, in a group message (where `from` is the group), `author` (any of its ids: a person's phone
 * and LIDs): two ranges, the second without the rows of the first, which the author index answers on its own (it
 * ends in from_jid). One `OR` instead makes SQLite
 * walk the whole session in time order and test every row.
 */
function rangesOf(filter: MessageFilter): { ranges: string[]; params: Record<string, unknown> } {
  const base = ['session_id = @session_id'];
  const params: Record<string, unknown> = { session_id: filter.sessionId };
  const chats = filterIds(filter.chatId);
  if (chats.length > 0) base.push(`chat_id IN (${placeholders('chat', chats, params)})`);
  const senders = filterIds(filter.from);
  if (senders.length === 0) return { ranges: [base.join(' AND ')], params };
  const list = placeholders('from', senders, params);
  return {
    ranges: [
      [...base, `from_jid IN (${list})`],
      [...base, `author IN (${list})`, `from_jid NOT IN (${list})`],
    ].map((range) => range.join(' AND ')),
    params,
  };
}

/** `@name0, @name1, …` for `ids` (a chat or a sender and its aliases), their parameters added to `params`. */
function placeholders(name: string, ids: readonly string[], params: Record<string, unknown>): string {
  return ids
    .map((id, i) => {
      params[`${name}${i}`] = id;
      return `@${name}${i}`;
    })
    .join(', ');
}

/** The FTS5 scope token of a session, or of one chat of it (see migration 0013_message_search). */
function scopeToken(sessionId: string, chatId: string | undefined): string {
  const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');
  return chatId === undefined ? `s${hex(sessionId)}` : `c${hex(`${sessionId}/${chatId}`)}`;
}

/**
 * The MATCH expression of a search: the scope token, and every term as a phrase of its words in the body column.
 * Words hold letters and digits only (message-search.ts), so nothing in them is FTS5 syntax; quotes are doubled all
 * the same.
 */
function matchOf(search: MessageSearch): string {
  const phrase = (term: SearchTerm) => `"${term.words.join(' ').replaceAll('"', '""')}"`;
  const scope = scopeToken(search.sessionId, search.chatId);
  return `scope : "${scope}" AND body : (${search.terms.map(phrase).join(' AND ')})`;
}

/** The rowid a scan cursor names (a decimal rowid); anything else starts over, as a cursor is opaque. */
function rowidOf(after: string | null): number {
  const rowid = after === null ? 0 : Number.parseInt(after, 10);
  return Number.isSafeInteger(rowid) && rowid > 0 ? rowid : 0;
}

/** History and search over the messages table and its full-text index. */
export class SqliteMessageReads {
  private readonly rows: StatementCache<MessageRow>;
  private readonly totals: StatementCache<{ total: number }>;
  private readonly countHits: LazyStatement<{ match: string; cap: number }, { total: number }>;
  private readonly pageHits: LazyStatement<Record<string, unknown>, MessageRow>;
  private readonly listTx: Database.Transaction<ListFn>;
  private readonly searchTx: Database.Transaction<SearchFn>;
  private readonly scanPage: LazyStatement<[number, number], MessageRow & { rid: number }>;

  constructor(db: SqliteDb) {
    this.rows = new StatementCache(db);
    // The table's own B-tree order: each page is one range read, however deep the scan is.
    this.scanPage = new LazyStatement(
      db,
      'SELECT rowid AS rid, * FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?',
    );
    this.totals = new StatementCache(db);
    this.countHits = new LazyStatement(
      db,
      `SELECT count(*) AS total FROM (
         SELECT rowid FROM messages_fts WHERE messages_fts MATCH @match ORDER BY rowid LIMIT @cap)`,
    );
    // The hits' rowids are minus the messages' (newest stored first); the session and chat are checked again on
    // the rows, so an index that went out of step with the table can never show another session's message.
    this.pageHits = new LazyStatement(
      db,
      `SELECT m.* FROM (
         SELECT rowid AS hit FROM messages_fts WHERE messages_fts MATCH @match ORDER BY rowid LIMIT @limit OFFSET @offset
       ) AS h CROSS JOIN messages AS m ON m.rowid = -h.hit
       WHERE m.session_id = @session_id AND (@chat_id IS NULL OR m.chat_id = @chat_id)
       ORDER BY h.hit`,
    );
    this.listTx = db.transaction((filter: MessageFilter, page: Page) => this.readList(filter, page));
    this.searchTx = db.transaction((search: MessageSearch, page: Page) => this.readSearch(search, page));
  }

  list(filter: MessageFilter, page: Page): { messages: Message[]; total: number } {
    return this.listTx.deferred(filter, page);
  }

  search(search: MessageSearch, page: Page): MessageSearchPage {
    return this.searchTx.deferred(search, page);
  }

  private readList(filter: MessageFilter, page: Page): { messages: Message[]; total: number } {
    const { ranges, params } = rangesOf(filter);
    // The same ranges over the kept counts (migration 0014_message_counts): a sum over a few rows per chat.
    const counts = ranges
      .map((range) => `(SELECT coalesce(sum(n), 0) FROM message_counts WHERE ${range})`)
      .join(' + ');
    const total = this.totals.first(`SELECT ${counts} AS total`, params)?.total ?? 0;
    // The page's keys come from the covering indexes (merged in order when there are two ranges).
    const keys = ranges
      .map((range) => `SELECT rowid AS r, timestamp, created_at, id FROM messages WHERE ${range}`)
      .join(' UNION ALL ');
    const messages = this.rows
      .all(
        `SELECT m.* FROM (${keys} ${ORDER} LIMIT @limit OFFSET @offset) AS k
         CROSS JOIN messages AS m ON m.rowid = k.r
         ORDER BY k.timestamp DESC, k.created_at DESC, k.id DESC`,
        { ...params, limit: page.limit, offset: page.offset },
      )
      .map(toMessage);
    return { messages, total };
  }

  private readSearch(search: MessageSearch, page: Page): MessageSearchPage {
    const match = matchOf(search);
    const counted = this.countHits.get({ match, cap: search.maxMatches + 1 })?.total ?? 0;
    const total = Math.min(counted, search.maxMatches);
    const limit = Math.min(page.limit, total - page.offset);
    const messages =
      limit <= 0
        ? []
        : this.pageHits
            .all({
              match,
              limit,
              offset: page.offset,
              session_id: search.sessionId,
              chat_id: search.chatId ?? null,
            })
            .map(toMessage);
    return { messages, total, truncated: counted > search.maxMatches };
  }

  /** A page of the whole table in rowid order (the data export). */
  scan(after: string | null, limit: number): MessageScanPage {
    const rows = this.scanPage.all(rowidOf(after), limit);
    const last = rows.at(-1);
    return {
      messages: rows.map(({ rid: _rid, ...row }) => toMessage(row)),
      next: rows.length < limit || last === undefined ? null : String(last.rid),
    };
  }
}
