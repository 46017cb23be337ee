/**
 * Linked-device credentials in the data export and import, on the operator's explicit request only
 * (includeCredentials): with them a session moves to another deployment and resumes without a new QR, but the
 * document then holds the account's keys. Outside the table registry on purpose, so no ordinary export carries them.
 */
import { CREDENTIALS_TABLE } from '#shared/domain/data-export.js';
import { ExportCredentials } from '#shared/domain/data-export-rows.js';
import type { Session } from '#shared/domain/session.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import type { RowProblem } from './import-validation.js';

/** Where the engines keep the auth state, when the API can reach it (null: aws mode with AUTH_STATE_STORE=file). */
export interface CredentialsDeps {
  authState: (() => AuthStateStore) | null;
}

/** The auth-state store, or 409 CREDENTIALS_UNAVAILABLE when the API cannot reach it. */
export function credentialsStore(deps: CredentialsDeps): AuthStateStore {
  if (deps.authState) return deps.authState();
  throw new ConflictError(
    'CREDENTIALS_UNAVAILABLE',
    "This deployment keeps the linked devices' credentials on the hosts' file system (AUTH_STATE_STORE=file), out of the API's reach: they cannot be exported or imported here",
  );
}

/** The document's credentials table as text pieces: one row (one line) per session whose device holds anything. */
export async function* credentialsPieces(
  store: AuthStateStore,
  sessions: readonly Session[],
): AsyncIterable<string> {
  yield `,\n${JSON.stringify(CREDENTIALS_TABLE)}:[`;
  let first = true;
  for (const { id } of sessions) {
    const { credentials, keys } = await store.readAll(id);
    if (credentials === null && keys.length === 0) continue;
    const row: ExportCredentials = { sessionId: id, credentials, keys };
    yield `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
    first = false;
  }
  yield '\n]';
}

/** The credentials rows, parsed; each must name a session of the document, once. */
export function checkCredentialRows(
  raw: readonly unknown[],
  sessionIds: ReadonlySet<string>,
): { rows: ExportCredentials[]; problems: RowProblem[] } {
  const rows: ExportCredentials[] = [];
  const problems: RowProblem[] = [];
  const seen = new Set<string>();
  for (const [index, value] of raw.entries()) {
    const parsed = ExportCredentials.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 3))
        problems.push({
          table: CREDENTIALS_TABLE,
          index,
          path: issue.path.join('.'),
          message: issue.message,
        });
      continue;
    }
    const { sessionId } = parsed.data;
    if (!sessionIds.has(sessionId))
      problems.push({
        table: CREDENTIALS_TABLE,
        index,
        path: 'sessionId',
        message: `Unknown session ${sessionId} (not in the document's sessions)`,
      });
    if (seen.has(sessionId))
      problems.push({
        table: CREDENTIALS_TABLE,
        index,
        path: 'sessionId',
        message: `Duplicate row ${sessionId}`,
      });
    seen.add(sessionId);
    rows.push(parsed.data);
  }
  return { rows, problems };
}

/**
 * Replaces the auth state of every session of the document with its row's: whatever the target held for them is
 * wiped first, so a session without a row keeps none (it shows a QR). Keys are written before the credentials, as an
 * engine does, so an interrupted restore never leaves credentials without their keys. Answers the rows restored.
 */
export async function restoreCredentials(
  store: AuthStateStore,
  sessionIds: Iterable<string>,
  rows: readonly ExportCredentials[],
): Promise<number> {
  const bySession = new Map(rows.map((row) => [row.sessionId, row]));
  for (const sessionId of sessionIds) {
    await store.wipe(sessionId);
    const row = bySession.get(sessionId);
    if (row === undefined) continue;
    await store.writeKeys(
      sessionId,
      row.keys.map(({ category, id, value }) => ({ category, id, value })),
    );
    if (row.credentials !== null) await store.writeCredentials(sessionId, row.credentials);
    // The engine that starts the session opens it afresh: nothing of this process's bookkeeping should linger.
    await store.release(sessionId);
  }
  return bySession.size;
}
