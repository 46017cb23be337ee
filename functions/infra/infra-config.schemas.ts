/** The schemas GET and PUT /api/infra/config share. */
import { z } from 'zod';
import { RUNTIME_SETTING_NAMES, RuntimeSettingsSchema } from '#shared/config/runtime-settings.js';

/** The answer of both routes. */
export const InfraConfigResponse = z
  .object({
    settings: RuntimeSettingsSchema.describe('The values in force'),
    overrides: RuntimeSettingsSchema.partial().describe(
      'The saved overrides; a pinned one is not in force while the environment sets it',
    ),
    envPinned: z
      .array(z.enum(RUNTIME_SETTING_NAMES as [string, ...string[]]))
      .describe('Settings the environment sets: PUT refuses them (400 SETTING_ENV_PINNED)'),
    updatedAt: z.iso.datetime().nullable().describe('Last save; null when never saved'),
  })
  .meta({ id: 'InfraConfig' });
