import type { Env } from '#shared/config/env.js';
import type {
  RuntimeSettingName,
  RuntimeSettingOverrides,
  RuntimeSettings,
} from '#shared/config/runtime-settings.js';
import type { Caller } from '#shared/domain/caller.js';
import { ValidationError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import type { LiveSettings } from './live-settings.js';

/** GET and PUT /api/infra/config. */
export interface InfraConfig {
  /** The values in force. */
  settings: RuntimeSettings;
  /** The saved overrides (a pinned one is kept but not in force while the environment pins it). */
  overrides: RuntimeSettingOverrides;
  /** The settings the environment sets: their values come from it, and PUT refuses them. */
  envPinned: RuntimeSettingName[];
  updatedAt: string | null;
}

type ConfigDeps = Pick<CoreDeps, 'data' | 'clock' | 'audit'> & {
  env: Pick<Env, 'ENV_PINNED'>;
  settings: LiveSettings;
};

/** The run-time settings, read from the store now (so this process applies a save made elsewhere at once). */
export async function getInfraConfig(deps: ConfigDeps): Promise<InfraConfig> {
  const stored = await deps.data.settings.read();
  deps.settings.apply(stored.overrides);
  return {
    settings: deps.settings.current(),
    overrides: stored.overrides,
    envPinned: [...deps.env.ENV_PINNED],
    updatedAt: stored.updatedAt,
  };
}

/**
 * Replaces the overrides (a setting left out goes back to the environment's value), applies them in this process
 * at once (the others within SETTINGS_MAX_AGE_MS) and audits `infra_config_saved` with the names that changed. A
 * setting the environment pins is refused (400 SETTING_ENV_PINNED) and nothing is saved.
 */
export async function saveInfraConfig(
  deps: ConfigDeps,
  caller: Caller,
  overrides: RuntimeSettingOverrides,
): Promise<InfraConfig> {
  const names = Object.keys(overrides) as RuntimeSettingName[];
  const pinned = names.filter((name) => deps.env.ENV_PINNED.includes(name));
  if (pinned.length > 0) {
    throw new ValidationError(`Set by the environment, not changeable at run time: ${pinned.join(', ')}`, {
      code: 'SETTING_ENV_PINNED',
      details: { settings: pinned },
    });
  }
  const previous = await deps.data.settings.read();
  const updatedAt = deps.clock.now().toISOString();
  await deps.data.settings.write({ overrides, updatedAt });
  deps.settings.apply(overrides);
  const changed = [
    ...new Set([...names, ...(Object.keys(previous.overrides) as RuntimeSettingName[])]),
  ].filter((name) => previous.overrides[name] !== overrides[name]);
  await deps.audit.record(caller, { action: 'infra_config_saved', metadata: { changed, overrides } });
  return {
    settings: deps.settings.current(),
    overrides,
    envPinned: [...deps.env.ENV_PINNED],
    updatedAt,
  };
}
