/**
 * The data import (POST /api/infra/import-data): checks the whole document first and refuses it whole (400
 * IMPORT_INVALID naming the first bad rows) before anything changes; refuses while sessions run (409
 * IMPORT_SESSIONS_RUNNING) unless told to stop them; then replaces the data store's sessions and their rows with
 * the document's inside `data.atomically` (SQLite: one transaction, all or nothing; DynamoDB: the batch sequence
 * below, which a rerun of the same import finishes) and adds the document's API keys the target lacks. A document
 * exported with includeCredentials then also replaces the linked devices' auth state of its sessions (after the
 * data, so a failure before leaves the target's devices as they were), audited as a warning. The document is never
 * held whole: it is read twice from its source, row by row (import-passes.ts), to check it and then to write it.
 *
 * The DynamoDB sequence: (1) each existing session's rows and then the session are deleted, session by session,
 * then every delivery failure; (2) the document's tables are written in EXPORT_TABLES order (sessions, settings,
 * webhooks, rules, templates, chats, aliases, statuses, failures, then messages a page at a time). Every step is
 * keyed by the rows' own ids, so after a failure part-way the same request, sent again, starts over from (1) and
 * ends with exactly the document's rows. The message statistics are not in the document: the imported messages
 * rebuild them as any stored message does.
 */
import type { ApiKey } from '#shared/domain/api-key.js';
import type { Caller } from '#shared/domain/caller.js';
import type { EXPORT_TABLES } from '#shared/domain/data-export.js';
import { RUNNING_STATUSES, type Session } from '#shared/domain/session.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { deleteSessionRows } from '#shared/use-cases/sessions/delete-session.js';
import { stopSession } from '#shared/use-cases/sessions/engine-controls.js';
import { type CredentialsDeps, credentialsStore, restoreCredentials } from './export-credentials.js';
import { EXPORT_PAGE_SIZE } from './export-tables.js';
import { checkDocument, type ImportBodyChecks, type ImportSource, writeDocument } from './import-passes.js';

export type ImportDeps = Pick<CoreDeps, 'data' | 'main' | 'audit' | 'host' | 'clock'> & CredentialsDeps;

/** What an import wrote, by table, and which sessions it stopped first. */
export interface ImportResult {
  imported: Record<(typeof EXPORT_TABLES)[number], number>;
  /** API keys of the document the target already held (same id or hash): kept as they are. */
  apiKeysKept: number;
  stoppedSessions: string[];
  /** Sessions whose linked-device credentials the document restored (absent when it carried none). */
  credentials?: number;
}

async function runningSessions(deps: ImportDeps): Promise<Session[]> {
  return deps.data.sessions.listByStatus([...RUNNING_STATUSES]);
}

/** A retention cut-off before which every delivery failure lies (a four-digit year: stores compare ISO text). */
const EVERYTHING = new Date('9999-12-31T23:59:59.999Z');

/**
 * Every existing session and its rows, removed as deleteSession does (media files stay: the rows may name them),
 * then the delivery failures, which outlive their sessions.
 */
async function clearData(deps: ImportDeps): Promise<void> {
  const { data } = deps;
  const firstPage = () => data.sessions.list({}, { limit: EXPORT_PAGE_SIZE, offset: 0 });
  for (let existing = await firstPage(); existing.length > 0; existing = await firstPage()) {
    for (const { id } of existing) {
      await deleteSessionRows(data, id);
      await data.statuses.deleteBySession(id);
      await data.batches.deleteBySession(id);
      await data.sessions.delete(id);
    }
  }
  while ((await data.deliveryFailures.pruneOlderThan(EVERYTHING, EXPORT_PAGE_SIZE)) === EXPORT_PAGE_SIZE);
}

/** Adds the document's keys the target lacks; keys it holds (same id or hash) stay, so nobody is locked out. */
async function addApiKeys(deps: ImportDeps, keys: readonly ApiKey[]): Promise<number> {
  let kept = 0;
  for (const key of keys) {
    const held =
      (await deps.main.apiKeys.findById(key.id)) ?? (await deps.main.apiKeys.findByHash(key.keyHash));
    if (held) kept += 1;
    else await deps.main.apiKeys.create(key);
  }
  return kept;
}

/**
 * Checks, then replaces the data with the document's (see the module comment for what moves and how). The document
 * is read twice from `source` (check, then write), never held whole; `checks` are the transport's checks of the
 * values it did not parse itself.
 */
export async function importData(
  deps: ImportDeps,
  caller: Caller,
  source: ImportSource,
  checks: ImportBodyChecks,
): Promise<ImportResult> {
  const checked = await checkDocument(source, checks);
  const { envelope, credentials: credentialRows } = checked;
  // Refused before anything changes, like any other reason the import cannot be done whole.
  const authState = credentialRows ? credentialsStore(deps) : null;
  const running = await runningSessions(deps);
  if (running.length > 0 && !envelope.stopSessions) {
    throw new ConflictError(
      'IMPORT_SESSIONS_RUNNING',
      `${running.length} session(s) are running; stop them or import with stopSessions=true`,
      { details: { sessions: running.map((session) => session.id) } },
    );
  }
  for (const session of running) await stopSession(deps, caller, session.id);
  const apiKeys = await deps.data.atomically(async () => {
    await clearData(deps);
    return writeDocument(deps, source, checked);
  });
  const apiKeysKept = await addApiKeys(deps, apiKeys);
  const credentials =
    authState && credentialRows
      ? await restoreCredentials(authState, checked.sessionIds, credentialRows)
      : undefined;
  const imported = Object.fromEntries(
    Object.entries(checked.counts).map(([table, count]) => [
      table,
      count - (table === 'apiKeys' ? apiKeysKept : 0),
    ]),
  ) as ImportResult['imported'];
  const result: ImportResult = {
    imported,
    apiKeysKept,
    stoppedSessions: running.map((session) => session.id),
    ...(credentials === undefined ? {} : { credentials }),
  };
  await deps.audit.record(caller, {
    action: 'infra_data_imported',
    // Credentials restored let this deployment act as the accounts' linked devices: worth a warning.
    ...(credentials === undefined ? {} : { severity: 'warn' as const }),
    metadata: {
      ...result.imported,
      apiKeysKept,
      stoppedSessions: result.stoppedSessions.length,
      from: envelope.mode,
      ...(credentials === undefined ? {} : { includeCredentials: true, credentials }),
    },
  });
  return result;
}
