import { defineRoute } from '#functions/http/route.js';
import { getInfraConfig } from '#shared/use-cases/infra/infra-config.js';
import { InfraConfigResponse } from './infra-config.schemas.js';

/** GET /api/infra/config: the run-time settings in force, the saved overrides and what the environment pins. */
export const getInfraConfigRoute = defineRoute({
  method: 'GET',
  path: '/api/infra/config',
  summary: 'Run-time settings',
  tag: 'Infra',
  auth: { role: 'admin', unscoped: true },
  response: InfraConfigResponse,
  success: 200,
  run: ({ deps }) => getInfraConfig(deps),
});
