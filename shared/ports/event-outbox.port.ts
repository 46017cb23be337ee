import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { newRecordId } from '#shared/domain/record-id.js';

/** One stored event waiting to be handed to delivery (webhooks, autoreply). */
export interface OutboxEntry {
  id: string;
  event: GatewayEvent;
  /** ISO instant the entry was stored. */
  createdAt: string;
}

/**
 * An entry as the outbox holds it (the data export's row): `claimedAt` is when a sweep last claimed it, null while
 * none has, so a sweep on the store it is restored to claims it as it would have claimed it here.
 */
export interface StoredOutboxEntry extends OutboxEntry {
  claimedAt: string | null;
}

/** A page of the outbox: `next` continues after it, null once every entry was read. */
export interface OutboxPage {
  entries: StoredOutboxEntry[];
  next: string | null;
}

/** A new entry for `event`, stored at `now` (a fresh, time-ordered id). */
export function outboxEntry(event: GatewayEvent, now: Date): OutboxEntry {
  return { id: newRecordId(), event, createdAt: now.toISOString() };
}

/**
 * The outbox entry a status write stores with the row in the same transaction, decided from the row as it is
 * written (`updated`) or found (`unchanged`); null stores none.
 */
export type OutboxEntryOf = (change: {
  outcome: 'updated' | 'unchanged';
  message: Message;
}) => OutboxEntry | null;

/** The outbox entry an insert stores with its row; built from the message as it will be stored. */
export type OutboxEntryFor = (message: Message) => OutboxEntry;

/**
 * The outbox of the data store: events stored durably before anyone is told of them, in the same transaction as
 * the row they describe where there is one (MessageStore.insert/advanceStatus take the entry), and removed once
 * delivery has taken them over. A relay that died mid-way leaves its entries here; a sweep claims those that have
 * waited too long and relays them again, so an event is delivered at least once (receivers deduplicate on the
 * idempotency key, which is derived from the stored event and so survives the replay).
 */
export interface EventOutbox {
  /** Stores entries that have no row of their own (session and call events). A taken id raises ConflictError. */
  append(entries: readonly OutboxEntry[]): Promise<void>;
  /**
   * Claims up to `limit` entries created (or last claimed) before `olderThan`, oldest first, and marks them
   * claimed at `now`, so two sweepers never take the same entry at once and an entry claimed by a host that died
   * is claimed again one `olderThan` period later.
   */
  claimStale(options: { olderThan: Date; now: Date; limit: number }): Promise<OutboxEntry[]>;
  /** Removes entries whose delivery is settled; unknown ids are ignored. */
  complete(ids: readonly string[]): Promise<void>;
  /**
   * Every waiting entry, claimed or not, a page at a time: `after` is the previous page's `next` (null: from the
   * start), at most `limit` entries per page (a page may be shorter before the end). For the data export.
   */
  scan(after: string | null, limit: number): Promise<OutboxPage>;
  /**
   * Writes entries back exactly as `scan` read them (claim state included), replacing an entry of the same id
   * (so an import run again ends with the same entries). For the data import.
   */
  restore(entries: readonly StoredOutboxEntry[]): Promise<void>;
  /** How many entries are waiting (metrics and tests). */
  count(): Promise<number>;
}
