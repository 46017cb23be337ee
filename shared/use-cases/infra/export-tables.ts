/**
 * The data export's table registry: for each table of the document, how the export reads it (pages of rows, the
 * per-session tables session by session) and how the import writes its rows back. The export and the import iterate
 * it in EXPORT_TABLES order, so a table is added here and in shared/domain/data-export.ts, nowhere else.
 */
import type { ChatChange } from '#shared/domain/chat.js';
import type { ExportRow, ExportTable } from '#shared/domain/data-export.js';
import { RUNNING_STATUSES, type Session } from '#shared/domain/session.js';
import type { StoredOutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

/** Rows read per store call: a page of messages is a few hundred kB at most. */
export const EXPORT_PAGE_SIZE = 500;
/** Batches read per store call: a batch's items may take a megabyte. */
const BATCH_PAGE_SIZE = 20;

/** What the tables are read from and written to. */
export type TableDeps = Pick<CoreDeps, 'data' | 'main' | 'clock'>;

/** One table's reader and writer. */
export interface ExportTableEntry<T extends ExportTable> {
  /** The table's rows, a page at a time; `sessions` is every session of the data store. */
  read(deps: TableDeps, sessions: readonly Session[]): AsyncIterable<ExportRow<T>[]>;
  /** Writes the document's rows into a data store emptied of sessions (the API keys are added, see the import). */
  write(deps: TableDeps, rows: readonly ExportRow<T>[]): Promise<void>;
}

/** No cap on imported rows per session: the document is what a deployment held, caps included. */
const UNCAPPED = { maxPerSession: 0 };

/** Reads `page(offset)` until a page comes back short. */
async function* byOffset<R>(page: (offset: number) => Promise<R[]>): AsyncIterable<R[]> {
  for (let offset = 0; ; offset += EXPORT_PAGE_SIZE) {
    const rows = await page(offset);
    yield rows;
    if (rows.length < EXPORT_PAGE_SIZE) return;
  }
}

async function* perSession<R>(
  sessions: readonly Session[],
  read: (sessionId: string) => AsyncIterable<R[]> | Promise<R[]>,
): AsyncIterable<R[]> {
  for (const { id } of sessions) {
    const rows = read(id);
    if (rows instanceof Promise) yield await rows;
    else yield* rows;
  }
}

/** Reads pages after a cursor (the last row's key, null first) until a page comes back short. */
async function* byCursor<R>(
  size: number,
  page: (after: string | null) => Promise<R[]>,
  keyOf: (row: R) => string,
): AsyncIterable<R[]> {
  for (let after: string | null = null; ; ) {
    const rows = await page(after);
    yield rows;
    const last = rows.at(-1);
    if (rows.length < size || last === undefined) return;
    after = keyOf(last);
  }
}

/** Reads `page(after)` from the start, each time after the previous page's `next`, until that is null. */
async function* byNext<R>(
  page: (after: string | null) => Promise<{ rows: R[]; next: string | null }>,
): AsyncIterable<R[]> {
  let after: string | null = null;
  do {
    const { rows, next } = await page(after);
    yield rows;
    after = next;
  } while (after !== null);
}

/** Every entry of the outbox, page by page. */
const outboxPages = ({ data }: TableDeps): AsyncIterable<StoredOutboxEntry[]> =>
  byNext(async (after) => {
    const { entries, next } = await data.outbox.scan(after, EXPORT_PAGE_SIZE);
    return { rows: entries, next };
  });

/** Writes rows a page at a time side by side (SQLite's group commit takes a page in one batch; DynamoDB overlaps). */
async function inPages<R>(rows: readonly R[], write: (row: R) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += EXPORT_PAGE_SIZE)
    await Promise.all(rows.slice(i, i + EXPORT_PAGE_SIZE).map(write));
}

/**
 * A session as the target stores it: none runs there yet, so a running status (an export taken while it ran) reads
 * as disconnected and unleased; any other row is kept exactly.
 */
function quiesced(session: Session): Session {
  if (!RUNNING_STATUSES.has(session.status)) return session;
  return {
    ...session,
    status: 'disconnected',
    nodeId: null,
    nodeUrl: null,
    claimedAt: null,
    leaseExpiresAt: null,
  };
}

/** The change that recreates a stored chat exactly in a store that does not hold it. */
function chatCreation({ sessionId: _session, ...chat }: ExportRow<'chats'>): ChatChange {
  return {
    id: chat.id,
    name: chat.name,
    ...(chat.lastMessage ? { lastMessage: chat.lastMessage } : {}),
    ...(chat.timestamp === null ? {} : { timestamp: chat.timestamp }),
    unread: { set: chat.unreadCount },
    markedUnread: chat.markedUnread,
    archived: chat.archived,
    pinnedAt: chat.pinnedAt,
    muteUntil: chat.muteUntil,
  };
}

/** Every table's entry. */
export const EXPORT_TABLE_REGISTRY: { [T in ExportTable]: ExportTableEntry<T> } = {
  sessions: {
    read: async function* (_deps, sessions) {
      yield [...sessions];
    },
    write: async ({ data }, rows) => {
      for (const session of rows) await data.sessions.create(quiesced(session));
    },
  },
  // Hashes only: a key's secret is never stored. The document carries them so a moved deployment still admits its
  // operators; the import adds them beside the target's own keys (not here).
  apiKeys: {
    read: async function* ({ main }) {
      yield await main.apiKeys.list();
    },
    write: async () => {},
  },
  // One row once saved; a document without it leaves the target's settings as they are.
  settings: {
    read: async function* ({ data }) {
      const { overrides, updatedAt } = await data.settings.read();
      yield updatedAt === null ? [] : [{ overrides, updatedAt }];
    },
    write: async ({ data }, rows) => {
      for (const row of rows) await data.settings.write(row);
    },
  },
  webhooks: {
    read: ({ data }, sessions) => perSession(sessions, (id) => data.webhooks.listBySession(id)),
    write: async ({ data }, rows) => {
      for (const row of rows) await data.webhooks.create(row, UNCAPPED);
    },
  },
  automationRules: {
    read: ({ data }, sessions) => perSession(sessions, (id) => data.automationRules.listBySession(id)),
    write: async ({ data }, rows) => {
      for (const row of rows) await data.automationRules.create(row, UNCAPPED);
    },
  },
  templates: {
    read: ({ data }, sessions) => perSession(sessions, (id) => data.templates.listBySession(id)),
    write: async ({ data }, rows) => {
      for (const row of rows) await data.templates.create(row, UNCAPPED);
    },
  },
  chats: {
    read: ({ data }, sessions) =>
      perSession(sessions, (sessionId) =>
        byOffset(async (offset) =>
          (await data.chats.list(sessionId, { limit: EXPORT_PAGE_SIZE, offset })).map((chat) => ({
            sessionId,
            ...chat,
          })),
        ),
      ),
    write: ({ data }, rows) => inPages(rows, (row) => data.chats.apply(row.sessionId, [chatCreation(row)])),
  },
  identities: {
    read: ({ data }, sessions) =>
      perSession(sessions, (sessionId) =>
        byNext(async (after) => {
          const { aliases, next } = await data.identities.list(sessionId, after, EXPORT_PAGE_SIZE);
          return { rows: aliases.map((alias) => ({ sessionId, ...alias })), next };
        }),
      ),
    write: ({ data }, rows) =>
      inPages(rows, ({ sessionId, ...alias }) => data.identities.link(sessionId, alias)),
  },
  // The statuses still shown: an expired one is gone for every reader already.
  statuses: {
    read: ({ data, clock }, sessions) =>
      perSession(sessions, (sessionId) =>
        byOffset((offset) =>
          data.statuses.list({ sessionId, now: clock.now().getTime() }, { limit: EXPORT_PAGE_SIZE, offset }),
        ),
      ),
    write: ({ data }, rows) => inPages(rows, (row) => data.statuses.insert(row)),
  },
  deliveryFailures: {
    read: ({ data }) =>
      byOffset((offset) => data.deliveryFailures.list({}, { limit: EXPORT_PAGE_SIZE, offset })),
    write: ({ data }, rows) => inPages(rows, (row) => data.deliveryFailures.insert(row)),
  },
  // Every batch, finished or not: one still pending or processing goes on where it stopped once its session runs on
  // the target (the host resumes a session's unfinished batches when it starts).
  batches: {
    read: ({ data }, sessions) =>
      perSession(sessions, (sessionId) =>
        byCursor(
          BATCH_PAGE_SIZE,
          (after) => data.batches.listBySession(sessionId, after, BATCH_PAGE_SIZE),
          (batch) => batch.batchId,
        ),
      ),
    write: async ({ data }, rows) => {
      for (const row of rows) await data.batches.create(row);
    },
  },
  // The keys still live: an expired one answers nothing any more. Claimed again at its own instant, a key is stored
  // exactly as read, and expires on the target when it would have on the source.
  idempotencyKeys: {
    read: ({ data, clock }, sessions) =>
      perSession(sessions, (sessionId) =>
        byCursor(
          EXPORT_PAGE_SIZE,
          (afterKey) =>
            data.sendIdempotency.listBySession(sessionId, {
              now: clock.now(),
              afterKey,
              limit: EXPORT_PAGE_SIZE,
            }),
          (key) => key.key,
        ),
      ),
    write: ({ data }, rows) =>
      inPages(rows, ({ createdAt, ...key }) => data.sendIdempotency.claim(key, new Date(createdAt))),
  },
  sendPacing: {
    read: ({ data }, sessions) =>
      perSession(sessions, async (sessionId) => {
        const record = await data.sendPacing.find(sessionId);
        return record ? [record] : [];
      }),
    write: ({ data }, rows) => inPages(rows, (row) => data.sendPacing.restore(row)),
  },
  // The events not yet handed to delivery, so the target delivers them. An entry whose session is gone (deleted
  // while it waited) is left out: its webhooks and rules went with the session, so it delivers nothing. The import
  // replaces the whole outbox: what the target held described its own sessions, which the import replaces.
  outbox: {
    read: async function* (deps, sessions) {
      const ids = new Set(sessions.map((session) => session.id));
      for await (const entries of outboxPages(deps))
        yield entries.flatMap((entry) =>
          ids.has(entry.event.sessionId) ? [{ sessionId: entry.event.sessionId, ...entry }] : [],
        );
    },
    write: async (deps, rows) => {
      const held: string[] = [];
      for await (const entries of outboxPages(deps)) held.push(...entries.map((entry) => entry.id));
      for (let i = 0; i < held.length; i += EXPORT_PAGE_SIZE)
        await deps.data.outbox.complete(held.slice(i, i + EXPORT_PAGE_SIZE));
      for (let i = 0; i < rows.length; i += EXPORT_PAGE_SIZE)
        await deps.data.outbox.restore(
          rows.slice(i, i + EXPORT_PAGE_SIZE).map(({ sessionId: _s, ...entry }) => entry),
        );
    },
  },
  messages: {
    read: ({ data }) =>
      byNext(async (after) => {
        const { messages, next } = await data.messages.scan(after, EXPORT_PAGE_SIZE);
        return { rows: messages, next };
      }),
    write: ({ data }, rows) => inPages(rows, (row) => data.messages.insert(row)),
  },
};
