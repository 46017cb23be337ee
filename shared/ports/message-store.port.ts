import type { Page } from '#shared/domain/common.js';
import type { Message, MessageStatus } from '#shared/domain/message.js';
import type { MessageChange } from '#shared/domain/message-changes.js';
import type { SearchTerm } from '#shared/domain/message-search.js';
import type { OutboxEntry, OutboxEntryFor, OutboxEntryOf } from './event-outbox.port.js';

export interface MessageFilter {
  sessionId: string;
  /** One chat, or any of several ids of one chat (a phone chat and its LID aliases). */
  chatId?: string | readonly string[];
  /** Matches `from`, and `author` for group messages; several ids match any of them (identity aliases). */
  from?: string | readonly string[];
}

/** A filter value as the list of ids it matches (empty when the filter is not set). */
export function filterIds(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}

/** A full-text search of one session's messages (what matches: shared/domain/message-search.ts). */
export interface MessageSearch {
  sessionId: string;
  chatId?: string;
  /** At least one. */
  terms: readonly SearchTerm[];
  /** Matches are counted up to this many; past them the answer is `truncated`. */
  maxMatches: number;
}

/** A page of search results. */
export interface MessageSearchPage {
  messages: Message[];
  /** Matches found, at most `maxMatches`; a page never reaches past them. */
  total: number;
  /**
   * The search stopped before it had looked at every message, so more may match: more than `maxMatches` did, or
   * (DynamoDB) it read its budget of items first; `total` then counts what it found until it stopped.
   */
  truncated: boolean;
}

export type StatusChange =
  | { outcome: 'updated'; message: Message }
  /** The row already had this or a later status (acks only move forward); at most its missing timestamp was filled. */
  | { outcome: 'unchanged'; message: Message }
  | { outcome: 'not_found' };

/** What applying a reaction, edit or revoke did to its target. */
export type ContentChange =
  | { outcome: 'updated'; message: Message; previous: Message }
  /** A repeat or an out-of-date change: the row stays as it was. */
  | { outcome: 'unchanged'; message: Message }
  | { outcome: 'not_found' };

/** The outbox entry a content change stores with the row it updated; null stores none. */
export type OutboxEntryOfChange = (change: { message: Message; previous: Message }) => OutboxEntry | null;

/** One page of a whole-store scan: its messages and the cursor of the next page (null: the scan is over). */
export interface MessageScanPage {
  messages: Message[];
  /** Opaque; hand it back as `after`. A page may hold fewer than `limit` messages (even none) and not be the last. */
  next: string | null;
}

/** Stored messages of the data store. (sessionId, waMessageId) is unique when waMessageId is set. */
export interface MessageStore {
  /**
   * Inserts a message. A second insert with the same (sessionId, waMessageId) is ignored and answers false, so an
   * engine that re-fires an inbound message never produces a duplicate row or event. With `outbox`, the entry it
   * builds is stored in the same transaction as the row (and not at all when the row is a duplicate).
   */
  insert(message: Message, outbox?: OutboxEntryFor): Promise<boolean>;
  findById(sessionId: string, id: string): Promise<Message | null>;
  findByWaMessageId(sessionId: string, waMessageId: string): Promise<Message | null>;
  /**
   * True when the session holds any message of the chat, in either direction (send pacing: a chat without history is
   * a cold reach-out). One indexed probe; DynamoDB reads its chat index, which may lag a write by a moment.
   */
  hasChat(sessionId: string, chatId: string): Promise<boolean>;
  /** Newest first (timestamp, then createdAt), with the unpaginated total. */
  list(filter: MessageFilter, page: Page): Promise<{ messages: Message[]; total: number }>;
  /**
   * Messages whose body matches the search, newest first. SQLite answers from a full-text index in the order rows
   * were stored (the history order, except for a message stored after a later one or still without a timestamp);
   * memory does the same. DynamoDB has no full-text index: it reads the session's (or chat's) history index newest
   * first, at most its configured budget of items (SEARCH_SCAN_LIMIT, default 5,000), and answers what matched
   * among them, `truncated` when items were left unread; each search costs about (items read × their average
   * size ÷ 8 KB) read units, ½ unit per 4 KB of eventually consistent index reads.
   */
  search(search: MessageSearch, page: Page): Promise<MessageSearchPage>;
  /**
   * Advances the status of the row with this network id if `status` is later than its current one; `timestamp`
   * (epoch seconds) fills the row's timestamp when it has none yet (an outgoing message once it is sent), even when
   * the status stays: the network's delivery ack can overtake the send's own `sent` write, and the row still gets
   * its time. The answered message always shows the row as stored afterwards. With `outbox`, the entry it builds
   * from the change is stored in the same transaction as the status write (DynamoDB: one TransactWriteItems; an
   * `unchanged` change that writes nothing else stores its entry on its own).
   */
  advanceStatus(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp?: number,
    outbox?: OutboxEntryOf,
  ): Promise<StatusChange>;
  /**
   * Applies a reaction, edit or revoke (shared/domain/message-changes.ts) to the row with this network id. A change
   * that leaves the row as it is writes nothing (`unchanged`). With `outbox`, the entry it builds from an update is
   * stored in the same transaction as the row; concurrent changes of one row never overwrite each other.
   */
  applyChange(
    sessionId: string,
    waMessageId: string,
    change: MessageChange,
    outbox?: OutboxEntryOfChange,
  ): Promise<ContentChange>;
  /** Deletes every message of a session (session delete). Answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
  /**
   * Deletes every stored message of one chat of a session (a chat cleared or deleted on the account), answering the
   * media paths of the rows it removed so the caller can delete their files. Other chats and sessions are untouched;
   * an unknown chat answers [].
   */
  deleteByChat(sessionId: string, chatId: string): Promise<string[]>;
  /**
   * Every message of every session, a page at a time (the data export), in the store's own stable order: SQLite by
   * rowid, DynamoDB by a table Scan, memory by insertion. `after` null starts; memory held is one page, whatever
   * the store's size. Rows written during a scan may or may not appear in it.
   */
  scan(after: string | null, limit: number): Promise<MessageScanPage>;
}
