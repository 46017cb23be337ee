import { z } from 'zod';
import { defineRoute, StreamedResponse } from '#functions/http/route.js';
import { exportData } from '#shared/use-cases/infra/export-data.js';

const ExportQuery = z.object({
  includeCredentials: z
    .enum(['true', 'false'])
    .default('false')
    .describe(
      "true: add each session's linked-device auth state (table `credentials`), so the sessions resume on the target " +
        "without a new QR. The document then holds the accounts' keys: keep it secret. Audited as a warning.",
    )
    .transform((value) => value === 'true'),
});

/**
 * GET /api/infra/export-data: every table of the data store (and the API keys' hashes) as one JSON document
 * (shared/domain/data-export.ts), written as it is read. The embedded gateway streams it, so memory stays flat
 * with the history's length; a Lambda answer is one buffer of at most 6 MB, so in aws mode a larger export is
 * refused (413 EXPORT_TOO_LARGE) rather than cut off. The linked devices' credentials only on request
 * (includeCredentials=true; 409 CREDENTIALS_UNAVAILABLE where the API cannot reach them).
 */
export const exportDataRoute = defineRoute({
  method: 'GET',
  path: '/api/infra/export-data',
  summary: 'Export the data store as JSON',
  tag: 'Infra',
  auth: { role: 'admin', unscoped: true },
  query: ExportQuery,
  binaryResponse: {
    mediaType: 'application/json',
    description:
      'The export document: `format`, `formatVersion`, `gatewayVersion`, `mode`, `exportedAt` and `tables` (sessions, apiKeys, settings, webhooks, automationRules, templates, chats, identities, statuses, deliveryFailures, messages), one row per line; `credentials` too with includeCredentials. Webhook secrets and headers and proxy credentials are left out.',
    headers: { 'Content-Disposition': 'attachment; filename="waygate-export-<time>.json"' },
  },
  success: 200,
  errors: [400, 409, 413],
  run: async ({ deps, caller, query }) => {
    const mode = deps.env.DEPLOYMENT_MODE;
    const pieces = await exportData({ ...deps, mode }, caller, query);
    const stamp = deps.clock.now().toISOString().replaceAll(':', '-');
    return new StreamedResponse(200, pieces, {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="waygate-export-${stamp}.json"`,
      'cache-control': 'no-store',
    });
  },
});
