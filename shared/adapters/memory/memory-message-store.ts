/** In-memory MessageStore: the unit-test fake, behaving like the SQLite adapter (copies, ordering, errors). */
import type { Page } from '#shared/domain/common.js';
import { isStatusAdvance, type Message, type MessageStatus } from '#shared/domain/message.js';
import { applyMessageChange, type MessageChange } from '#shared/domain/message-changes.js';
import { matchesSearch, searchTextOf } from '#shared/domain/message-search.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { OutboxEntryFor, OutboxEntryOf } from '#shared/ports/event-outbox.port.js';
import {
  type ContentChange,
  filterIds,
  type MessageFilter,
  type MessageScanPage,
  type MessageSearch,
  type MessageSearchPage,
  type MessageStore,
  type OutboxEntryOfChange,
  type StatusChange,
} from '#shared/ports/message-store.port.js';
import { MemoryEventOutbox } from './memory-event-outbox.js';
import { MemoryMessageStats } from './memory-message-stats.js';
import { jsonCopy } from './memory-support.js';

/** Field-by-field copy so callers never hold the stored object or its metadata, and stray fields are dropped. */
function copyMessage(message: Message): Message {
  return {
    id: message.id,
    sessionId: message.sessionId,
    waMessageId: message.waMessageId,
    chatId: message.chatId,
    chatName: message.chatName,
    author: message.author,
    from: message.from,
    to: message.to,
    body: message.body,
    type: message.type,
    direction: message.direction,
    timestamp: message.timestamp,
    metadata: message.metadata === null ? null : jsonCopy(message.metadata),
    status: message.status,
    mediaPath: message.mediaPath,
    mediaMimetype: message.mediaMimetype,
    createdAt: message.createdAt,
  };
}

/** Descending text order, like SQLite's binary collation for ASCII. */
function descending(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? 1 : -1;
}

/**
 * Newest first: timestamp, then createdAt, then id, all descending. A null timestamp sorts after every number,
 * as NULL does in SQLite's `timestamp DESC`.
 */
function newestFirst(a: Message, b: Message): number {
  if (a.timestamp !== b.timestamp) {
    if (a.timestamp === null) return 1;
    if (b.timestamp === null) return -1;
    return b.timestamp - a.timestamp;
  }
  return descending(a.createdAt, b.createdAt) || descending(a.id, b.id);
}

function matches(message: Message, filter: MessageFilter): boolean {
  if (message.sessionId !== filter.sessionId) return false;
  const chats = filterIds(filter.chatId);
  if (chats.length > 0 && !chats.includes(message.chatId)) return false;
  // In a group message `from` is the group and `author` the participant; a sender filter means either.
  const senders = filterIds(filter.from);
  if (senders.length > 0 && !senders.includes(message.from) && !senders.includes(message.author ?? '')) {
    return false;
  }
  return true;
}

/** A (session, network id) pair as one map key; JSON keeps the pair unambiguous whatever the strings hold. */
function waKey(sessionId: string, waMessageId: string): string {
  return JSON.stringify([sessionId, waMessageId]);
}

/** Messages in a Map keyed by id, plus a network-id index; nothing awaits, so every method is atomic. */
export class MemoryMessageStore implements MessageStore {
  private readonly byId = new Map<string, Message>();
  private readonly idByWaKey = new Map<string, string>();

  constructor(
    private readonly outbox: MemoryEventOutbox = new MemoryEventOutbox(),
    /** The counters this store keeps on write, as SQLite's triggers do. */
    readonly stats: MemoryMessageStats = new MemoryMessageStats(),
  ) {}

  async insert(message: Message, outbox?: OutboxEntryFor): Promise<boolean> {
    // The network id is checked first, as SQLite's ON CONFLICT (session_id, wa_message_id) DO NOTHING does.
    const key = message.waMessageId === null ? null : waKey(message.sessionId, message.waMessageId);
    if (key !== null && this.idByWaKey.has(key)) return false;
    if (this.byId.has(message.id))
      throw new ConflictError('CONFLICT', 'A message with this id already exists');
    const entry = outbox?.(message);
    if (entry) this.outbox.writeEntry(entry);
    this.byId.set(message.id, copyMessage(message));
    if (key !== null) this.idByWaKey.set(key, message.id);
    this.stats.record(message);
    return true;
  }

  async scan(after: string | null, limit: number): Promise<MessageScanPage> {
    // Insertion order; the cursor is the last id answered (a deleted one starts over, as an unknown cursor does).
    const all = [...this.byId.values()];
    const start = after === null ? 0 : all.findIndex((message) => message.id === after) + 1;
    const messages = all.slice(start, start + limit).map(copyMessage);
    const last = messages.at(-1);
    return { messages, next: start + limit < all.length && last ? last.id : null };
  }

  async findById(sessionId: string, id: string): Promise<Message | null> {
    const message = this.byId.get(id);
    return message === undefined || message.sessionId !== sessionId ? null : copyMessage(message);
  }

  async findByWaMessageId(sessionId: string, waMessageId: string): Promise<Message | null> {
    const message = this.byWaMessageId(sessionId, waMessageId);
    return message === undefined ? null : copyMessage(message);
  }

  async hasChat(sessionId: string, chatId: string): Promise<boolean> {
    for (const message of this.byId.values()) {
      if (message.sessionId === sessionId && message.chatId === chatId) return true;
    }
    return false;
  }

  async list(filter: MessageFilter, page: Page): Promise<{ messages: Message[]; total: number }> {
    const matching = [...this.byId.values()].filter((message) => matches(message, filter)).sort(newestFirst);
    return {
      messages: matching.slice(page.offset, page.offset + page.limit).map(copyMessage),
      total: matching.length,
    };
  }

  /** Newest stored first, as SQLite's index answers (the Map keeps insertion order, also across updates). */
  async search(search: MessageSearch, page: Page): Promise<MessageSearchPage> {
    const found: Message[] = [];
    for (const message of [...this.byId.values()].reverse()) {
      if (found.length > search.maxMatches) break;
      if (message.sessionId !== search.sessionId) continue;
      if (search.chatId !== undefined && message.chatId !== search.chatId) continue;
      if (matchesSearch(searchTextOf(message.body), search.terms)) found.push(message);
    }
    const total = Math.min(found.length, search.maxMatches);
    return {
      messages: found.slice(page.offset, Math.min(page.offset + page.limit, total)).map(copyMessage),
      total,
      truncated: found.length > search.maxMatches,
    };
  }

  async advanceStatus(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp?: number,
    outbox?: OutboxEntryOf,
  ): Promise<StatusChange> {
    const change = this.change(sessionId, waMessageId, status, timestamp);
    if (outbox && change.outcome !== 'not_found') {
      const entry = outbox(change);
      if (entry) this.outbox.writeEntry(entry);
    }
    return change;
  }

  private change(
    sessionId: string,
    waMessageId: string,
    status: MessageStatus,
    timestamp: number | undefined,
  ): StatusChange {
    const current = this.byWaMessageId(sessionId, waMessageId);
    if (current === undefined) return { outcome: 'not_found' };
    if (!isStatusAdvance(current.status, status)) {
      if (timestamp === undefined || current.timestamp !== null)
        return { outcome: 'unchanged', message: copyMessage(current) };
      const timed = { ...current, timestamp };
      this.byId.set(timed.id, timed);
      return { outcome: 'unchanged', message: copyMessage(timed) };
    }
    const next = { ...current, status, timestamp: current.timestamp ?? timestamp ?? null };
    this.byId.set(next.id, next);
    if (status === 'failed') this.stats.recordFailed(current);
    return { outcome: 'updated', message: copyMessage(next) };
  }

  async applyChange(
    sessionId: string,
    waMessageId: string,
    change: MessageChange,
    outbox?: OutboxEntryOfChange,
  ): Promise<ContentChange> {
    const current = this.byWaMessageId(sessionId, waMessageId);
    if (current === undefined) return { outcome: 'not_found' };
    const next = applyMessageChange(copyMessage(current), change);
    if (!next) return { outcome: 'unchanged', message: copyMessage(current) };
    const entry = outbox?.({ message: copyMessage(next), previous: copyMessage(current) });
    if (entry) this.outbox.writeEntry(entry);
    this.byId.set(next.id, copyMessage(next));
    return { outcome: 'updated', message: copyMessage(next), previous: copyMessage(current) };
  }

  async deleteBySession(sessionId: string): Promise<number> {
    let removed = 0;
    for (const [id, message] of this.byId) {
      if (message.sessionId !== sessionId) continue;
      this.byId.delete(id);
      if (message.waMessageId !== null) this.idByWaKey.delete(waKey(sessionId, message.waMessageId));
      removed += 1;
    }
    return removed;
  }

  /** Deletes the chat's rows and their network-id entries; the paths come in storage order. */
  async deleteByChat(sessionId: string, chatId: string): Promise<string[]> {
    const mediaPaths: string[] = [];
    for (const [id, message] of this.byId) {
      if (message.sessionId !== sessionId || message.chatId !== chatId) continue;
      this.byId.delete(id);
      if (message.waMessageId !== null) this.idByWaKey.delete(waKey(sessionId, message.waMessageId));
      if (message.mediaPath !== null) mediaPaths.push(message.mediaPath);
    }
    return mediaPaths;
  }

  private byWaMessageId(sessionId: string, waMessageId: string): Message | undefined {
    const id = this.idByWaKey.get(waKey(sessionId, waMessageId));
    return id === undefined ? undefined : this.byId.get(id);
  }
}
