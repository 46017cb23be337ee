/**
 * CRUD of records a session owns and that need nothing beyond their store (automation rules, message templates):
 * each use case loads the session first (404, or 403 outside the caller's scope) and then acts on the record inside
 * that session, so another session's record id is "not found". The resource's module names the use cases and says
 * what its store adds (list order, unique names).
 */
import { randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.js';
import type { AppError } from '#shared/errors/app-error.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import type { PerSessionCap } from '#shared/ports/webhook-store.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';

/** What every such record has besides the fields of its create body. */
interface Owned {
  id: string;
  sessionId: string;
  createdAt: string;
  updatedAt: string;
}

/** The store methods the use cases call; the stores of the resources satisfy it. */
export interface SessionRecordStore<T, Patch> {
  create(record: T, cap: PerSessionCap): Promise<void>;
  findById(sessionId: string, id: string): Promise<T | null>;
  listBySession(sessionId: string): Promise<T[]>;
  update(sessionId: string, id: string, patch: Patch): Promise<T | null>;
  delete(sessionId: string, id: string): Promise<boolean>;
}

type WriteDeps = Pick<CoreDeps, 'data' | 'clock'>;
type ReadDeps = Pick<CoreDeps, 'data'>;

/**
 * The use cases of one resource: `storeOf` picks its store, `notFound` is its 404. A record is its create body plus
 * id, session and timestamps; an update stamps `updatedAt`.
 */
export function sessionRecords<Create extends object, Update extends object>(
  storeOf: (data: DataStore) => SessionRecordStore<Owned & Create, Update & { updatedAt: string }>,
  notFound: (id: string) => AppError,
) {
  type Record = Owned & Create;

  /** The session's record of id `id`, or `notFound` (no session check: the caller made it). */
  async function load(data: DataStore, sessionId: string, id: string): Promise<Record> {
    const record = await storeOf(data).findById(sessionId, id);
    if (!record) throw notFound(id);
    return record;
  }

  return {
    load,

    /** Creates a record (201) under the per-session cap `maxPerSession` (0 = none). */
    async create(
      deps: WriteDeps,
      maxPerSession: number,
      caller: Caller,
      sessionId: string,
      body: Create,
    ): Promise<Record> {
      await loadSession(deps.data.sessions, caller, sessionId);
      const now = deps.clock.now().toISOString();
      const record: Record = { id: randomUUID(), sessionId, ...body, createdAt: now, updatedAt: now };
      await storeOf(deps.data).create(record, { maxPerSession });
      return record;
    },

    /** The session's records, in the order of the store. */
    async list(deps: ReadDeps, caller: Caller, sessionId: string): Promise<Record[]> {
      await loadSession(deps.data.sessions, caller, sessionId);
      return storeOf(deps.data).listBySession(sessionId);
    },

    /** One record of the session. */
    async get(deps: ReadDeps, caller: Caller, sessionId: string, id: string): Promise<Record> {
      await loadSession(deps.data.sessions, caller, sessionId);
      return load(deps.data, sessionId, id);
    },

    /** Applies a partial update; the record as stored afterwards. */
    async update(
      deps: WriteDeps,
      caller: Caller,
      sessionId: string,
      id: string,
      body: Update,
    ): Promise<Record> {
      await loadSession(deps.data.sessions, caller, sessionId);
      const updatedAt = deps.clock.now().toISOString();
      const updated = await storeOf(deps.data).update(sessionId, id, { ...body, updatedAt });
      if (!updated) throw notFound(id);
      return updated;
    },

    /** Deletes a record (204). */
    async remove(deps: ReadDeps, caller: Caller, sessionId: string, id: string): Promise<void> {
      await loadSession(deps.data.sessions, caller, sessionId);
      if (!(await storeOf(deps.data).delete(sessionId, id))) throw notFound(id);
    },
  };
}
