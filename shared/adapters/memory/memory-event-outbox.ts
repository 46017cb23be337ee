/** In-memory EventOutbox: the unit-test fake, behaving like the SQLite adapter (claims, order, conflicts). */
import { ConflictError } from '#shared/errors/app-error.js';
import type {
  EventOutbox,
  OutboxEntry,
  OutboxPage,
  StoredOutboxEntry,
} from '#shared/ports/event-outbox.port.js';

interface Stored {
  entry: OutboxEntry;
  dueAt: string;
}

const copyEntry = (entry: OutboxEntry): OutboxEntry => structuredClone(entry);

/** Entries in a Map keyed by id; nothing awaits, so every method is atomic. */
export class MemoryEventOutbox implements EventOutbox {
  private readonly byId = new Map<string, Stored>();

  /** Raises ConflictError for a taken id before anything is written (the message store checks with it). */
  assertFree(id: string): void {
    if (this.byId.has(id)) throw new ConflictError('CONFLICT', 'An outbox entry with this id already exists');
  }

  /** Stores one entry; the message store calls it beside its own write. */
  writeEntry(entry: OutboxEntry): void {
    this.assertFree(entry.id);
    this.byId.set(entry.id, { entry: copyEntry(entry), dueAt: entry.createdAt });
  }

  async append(entries: readonly OutboxEntry[]): Promise<void> {
    const ids = new Set<string>();
    for (const entry of entries) {
      this.assertFree(entry.id);
      if (ids.has(entry.id))
        throw new ConflictError('CONFLICT', 'An outbox entry with this id already exists');
      ids.add(entry.id);
    }
    for (const entry of entries) this.writeEntry(entry);
  }

  async claimStale(options: { olderThan: Date; now: Date; limit: number }): Promise<OutboxEntry[]> {
    const olderThan = options.olderThan.toISOString();
    const now = options.now.toISOString();
    const stale = [...this.byId.values()]
      .filter((stored) => stored.dueAt < olderThan)
      .sort((a, b) =>
        a.dueAt === b.dueAt ? a.entry.id.localeCompare(b.entry.id) : a.dueAt < b.dueAt ? -1 : 1,
      )
      .slice(0, options.limit);
    for (const stored of stale) stored.dueAt = now;
    return stale.map((stored) => copyEntry(stored.entry));
  }

  async complete(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.byId.delete(id);
  }

  async scan(after: string | null, limit: number): Promise<OutboxPage> {
    const page = [...this.byId.values()]
      .filter((stored) => after === null || stored.entry.id > after)
      .sort((a, b) => (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0))
      .slice(0, limit);
    const entries = page.map(({ entry, dueAt }) => ({
      ...copyEntry(entry),
      claimedAt: dueAt === entry.createdAt ? null : dueAt,
    }));
    return { entries, next: entries.length === limit ? (entries.at(-1)?.id ?? null) : null };
  }

  async restore(entries: readonly StoredOutboxEntry[]): Promise<void> {
    for (const { claimedAt, ...entry } of entries)
      this.byId.set(entry.id, { entry: copyEntry(entry), dueAt: claimedAt ?? entry.createdAt });
  }

  async count(): Promise<number> {
    return this.byId.size;
  }
}
