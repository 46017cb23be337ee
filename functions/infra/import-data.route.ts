import os from 'node:os';
import { z } from 'zod';
import { assertSafeBody, parseInput, requireBody } from '#functions/http/parse-request.js';
import { replayable } from '#functions/http/request-body.js';
import { defineRoute } from '#functions/http/route.js';
import { EXPORT_TABLES, ExportDocument } from '#shared/domain/data-export.js';
import { importData } from '#shared/use-cases/infra/import-data.js';
import type { ImportBodyChecks } from '#shared/use-cases/infra/import-passes.js';

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

/** The checks the stack gives a parsed body, made on the document's parts as the import reads them. */
const CHECKS: ImportBodyChecks = {
  envelope: (value) => {
    assertSafeBody(value);
    const { mode, stopSessions } = parseInput(ImportBody, requireBody(value), 'body');
    return { mode, stopSessions };
  },
  value: assertSafeBody,
};

/**
 * POST /api/infra/import-data: replaces the data store's sessions and their rows with an export document's. The
 * whole document is checked first (400 IMPORT_INVALID names the first bad rows; nothing changes); 409
 * IMPORT_SESSIONS_RUNNING while sessions run, unless `stopSessions`. A document with a `credentials` table
 * (exported with includeCredentials) also replaces the linked devices' auth state of its sessions. The body is
 * streamed (up to IMPORT_MAX_BYTES, 413 IMPORT_TOO_LARGE past it) to a file under DATA_DIR (embedded mode), read twice (check,
 * then write) and deleted, so memory does not grow with the document; a Lambda's buffered body is read in place.
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
  streamedBody: { maxBytes: (env) => env.IMPORT_MAX_BYTES, tooLargeCode: 'IMPORT_TOO_LARGE' },
  run: async ({ deps, caller, requestBody }) => {
    if (!requestBody) throw new Error('The import route is called with its request body');
    // In aws mode DATA_DIR holds nothing of the deployment (a process streaming there spools to the temp folder).
    const spoolDir = deps.env.DEPLOYMENT_MODE === 'aws' ? os.tmpdir() : deps.env.DATA_DIR;
    const source = await replayable(requestBody, spoolDir);
    try {
      return await importData(deps, caller, source, CHECKS);
    } finally {
      await source.dispose();
    }
  },
});
