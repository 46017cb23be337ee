import { z } from 'zod';
import { defineRoute } from '#functions/http/route.js';
import { ENGINE_KINDS } from '#shared/domain/engine-capabilities.js';
import { infraStatus } from '#shared/use-cases/infra/infra-status.js';

const UpDown = z.enum(['up', 'down']);

const InfraStatusResponse = z
  .object({
    deploymentMode: z.enum(['embedded', 'aws']),
    version: z.string(),
    database: z
      .object({ type: z.enum(['sqlite', 'dynamodb']), main: UpDown, data: UpDown })
      .describe('The main and data stores, each probed with a trivial query (3 s timeout)'),
    queue: z.object({
      type: z.enum(['embedded', 'sqs']),
      webhooks: z.object({ enabled: z.boolean().describe('QUEUE_ENABLED: deliveries through the queue') }),
    }),
    storage: z.object({ type: z.enum(['local', 's3']).describe('Where message media is archived') }),
    engine: z.object({
      type: z.enum(ENGINE_KINDS),
      activeSessions: z.number().int().min(0).describe('Engines running (live leases in aws mode)'),
    }),
  })
  .meta({ id: 'InfraStatus' });

/** GET /api/infra/status: the deployment's parts and whether its stores answer. Admin, unscoped keys only. */
export const infraStatusRoute = defineRoute({
  method: 'GET',
  path: '/api/infra/status',
  summary: 'Infrastructure status',
  tag: 'Infra',
  auth: { role: 'admin', unscoped: true },
  response: InfraStatusResponse,
  success: 200,
  run: ({ deps }) => infraStatus(deps),
});
