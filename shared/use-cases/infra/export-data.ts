/**
 * The data export (GET /api/infra/export-data): the document of shared/domain/data-export.ts written as text pieces
 * while the stores are read a page at a time, so memory holds one page whatever the history's length. Each row is
 * one line, so the document is also readable line by line (the import reads any layout: import-tokenizer.ts).
 */
import type { Caller } from '#shared/domain/caller.js';
import {
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  EXPORT_REDACTIONS,
  EXPORT_TABLES,
  type ExportRow,
  type ExportTable,
} from '#shared/domain/data-export.js';
import type { Session } from '#shared/domain/session.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { type CredentialsDeps, credentialsPieces, credentialsStore } from './export-credentials.js';
import { EXPORT_PAGE_SIZE, EXPORT_TABLE_REGISTRY, type ExportTableEntry } from './export-tables.js';

/** What an export reads, and how it names the deployment in the envelope. */
export type ExportDeps = Pick<CoreDeps, 'data' | 'main' | 'audit' | 'clock'> &
  CredentialsDeps & {
    version: string;
    mode: 'embedded' | 'aws';
  };

/** What the operator asked the export for beyond the data. */
export interface ExportOptions {
  /** Add each session's linked-device auth state (the `credentials` table): audited as a warning. */
  includeCredentials: boolean;
}

/** Every session, in pages (the whole list stays: the per-session tables are read session by session). */
async function allSessions(deps: ExportDeps): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE_SIZE) {
    const page = await deps.data.sessions.list({}, { limit: EXPORT_PAGE_SIZE, offset });
    sessions.push(...page);
    if (page.length < EXPORT_PAGE_SIZE) return sessions;
  }
}

async function* tablePieces<T extends ExportTable>(
  table: T,
  pages: AsyncIterable<ExportRow<T>[]>,
): AsyncIterable<string> {
  const redact = EXPORT_REDACTIONS[table] as ((row: ExportRow<T>) => ExportRow<T>) | undefined;
  let first = true;
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    const lines = rows.map((row) => JSON.stringify(redact ? redact(row) : row));
    yield `${first ? '\n' : ',\n'}${lines.join(',\n')}`;
    first = false;
  }
}

/**
 * Audits the export and answers its document as text pieces, read from the stores as the consumer pulls them.
 * Rows written during the export may or may not be in it (no snapshot spans the stores). With includeCredentials
 * the document carries the accounts' keys: the audit entry is a warning.
 */
export async function exportData(
  deps: ExportDeps,
  caller: Caller,
  options: ExportOptions = { includeCredentials: false },
): Promise<AsyncIterable<string>> {
  const exportedAt = deps.clock.now().toISOString();
  const authState = options.includeCredentials ? credentialsStore(deps) : null;
  await deps.audit.record(
    caller,
    authState
      ? {
          action: 'infra_data_exported',
          severity: 'warn',
          metadata: { exportedAt, includeCredentials: true },
        }
      : { action: 'infra_data_exported', metadata: { exportedAt } },
  );
  const envelope = {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    gatewayVersion: deps.version,
    mode: deps.mode,
    exportedAt,
  };
  return (async function* () {
    const sessions = await allSessions(deps);
    yield `${JSON.stringify(envelope).slice(0, -1)},"tables":{`;
    for (const [i, table] of EXPORT_TABLES.entries()) {
      yield `${i === 0 ? '' : ','}\n${JSON.stringify(table)}:[`;
      const entry = EXPORT_TABLE_REGISTRY[table] as ExportTableEntry<typeof table>;
      yield* tablePieces(table, entry.read(deps, sessions));
      yield '\n]';
    }
    if (authState) yield* credentialsPieces(authState, sessions);
    yield '\n}}\n';
  })();
}
