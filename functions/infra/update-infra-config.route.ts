import { defineRoute } from '#functions/http/route.js';
import { RuntimeSettingsSchema } from '#shared/config/runtime-settings.js';
import { saveInfraConfig } from '#shared/use-cases/infra/infra-config.js';
import { InfraConfigResponse } from './infra-config.schemas.js';

/** Any subset of the run-time settings; an unknown name is refused (400 VALIDATION_FAILED). */
const InfraConfigBody = RuntimeSettingsSchema.partial().meta({ id: 'InfraConfigUpdate' });

/**
 * PUT /api/infra/config: replaces the saved overrides (a setting left out returns to the environment's value),
 * applied without restart (this process at once, every other within seconds); audited `infra_config_saved`.
 */
export const updateInfraConfigRoute = defineRoute({
  method: 'PUT',
  path: '/api/infra/config',
  summary: 'Save run-time settings',
  tag: 'Infra',
  auth: { role: 'admin', unscoped: true },
  body: InfraConfigBody,
  response: InfraConfigResponse,
  success: 200,
  run: ({ deps, caller, body }) => saveInfraConfig(deps, caller, body),
});
