/**
 * The settings a running gateway may change (GET/PUT /api/infra/config), stored in the data store so both modes,
 * every process and every Lambda instance see them. Only settings that are safe to change live and are read where
 * they apply each time: the log level (loggers), the REST rate limit (the limiter of each API process) and the
 * retention of the audit log and of webhook delivery failures (read by each retention run). Everything else (ports,
 * stores, queues, secrets, capacities sized at boot) needs a restart and stays in the environment. A setting the
 * environment sets explicitly is pinned: the environment wins and the API refuses to change it.
 */
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Each run-time setting with what it accepts (the value it takes in the environment, typed). */
export const RuntimeSettingsSchema = z.strictObject({
  LOG_LEVEL: z.enum(LOG_LEVELS),
  RATE_LIMIT_MAX: z.number().int().min(1).max(1_000_000).describe('REST requests per client IP per window'),
  RATE_LIMIT_WINDOW_MS: z.number().int().min(1000).max(86_400_000),
  AUDIT_RETENTION_DAYS: z
    .number()
    .int()
    .min(0)
    .max(36_500)
    .describe('Days audit entries are kept; 0 keeps them all'),
  WEBHOOK_FAILURE_RETENTION_DAYS: z
    .number()
    .int()
    .min(0)
    .max(36_500)
    .describe('Days abandoned webhook deliveries are kept; 0 keeps them all'),
});
export type RuntimeSettings = z.output<typeof RuntimeSettingsSchema>;
export type RuntimeSettingName = keyof RuntimeSettings;

/** The names of the run-time settings (environment variables of the same names). */
export const RUNTIME_SETTING_NAMES = Object.keys(RuntimeSettingsSchema.shape) as RuntimeSettingName[];

/** Stored overrides: any subset of the settings. */
export const RuntimeSettingOverrides = RuntimeSettingsSchema.partial();
export type RuntimeSettingOverrides = z.output<typeof RuntimeSettingOverrides>;

/** The run-time settings a variable map sets explicitly (not blank): those the environment pins. */
export function pinnedSettings(source: Record<string, string | undefined>): RuntimeSettingName[] {
  return RUNTIME_SETTING_NAMES.filter((name) => (source[name] ?? '').trim() !== '');
}

/**
 * Stored overrides read back: each valid value kept, anything else (a name or value an older or newer version
 * wrote) left out, so a bad row never stops a process.
 */
export function parseOverrides(stored: unknown): RuntimeSettingOverrides {
  if (typeof stored !== 'object' || stored === null) return {};
  const out: Record<string, unknown> = {};
  for (const name of RUNTIME_SETTING_NAMES) {
    const value = RuntimeSettingsSchema.shape[name].safeParse((stored as Record<string, unknown>)[name]);
    if (value.success) out[name] = value.data;
  }
  return out as RuntimeSettingOverrides;
}
