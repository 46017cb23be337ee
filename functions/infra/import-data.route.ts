import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { EXPORT_TABLES, ExportDocument } from '#shared/domain/data-export.js';
import { importData } from '#shared/use-cases/infra/import-data.js';

const ImportBody = ExportDocument.extend({
  stopSessions: z
    .boolean()
    .default(false)
    .describe('Stop the running sessions first; without it, an import while any runs is refused (409).'),
}).meta({ id: 'DataImport' });

const ImportResult = z
  .object({
    imported: z.object(Object.fromEntries(EXPORT_TABLES.map((table) => [table, z.number().int()]))),
    apiKeysKept: z
      .number()
      .int()
      .describe("The document's API keys the target held already (kept as they are)."),
    stoppedSessions: z.array(z.string()),
    credentials: z
      .number()
      .int()
      .optional()
      .describe(
        'Sessions whose linked-device credentials the document restored (only when it carried them).',
      ),
  })
  .meta({ id: 'DataImportResult' });

/**
 * POST /api/infra/import-data: replaces the data store's sessions and their rows with an export document's. The
 * whole document is checked first (400 IMPORT_INVALID names the first bad rows; nothing changes); 409
 * IMPORT_SESSIONS_RUNNING while sessions run, unless `stopSessions`. A document with a `credentials` table
 * (exported with includeCredentials) also replaces the linked devices' auth state of its sessions.
 */
export const importDataRoute = defineRoute({
  method: 'POST',
  path: '/api/infra/import-data',
  summary: 'Import an export document, replacing the data',
  tag: 'Infra',
  auth: { role: 'admin', unscoped: true },
  body: ImportBody,
  response: ImportResult,
  success: 200,
  errors: [400, 409, 413],
  run: ({ deps, caller, body }) => {
    const { stopSessions, ...document } = body;
    return importData(deps, caller, document, { stopSessions });
  },
});
