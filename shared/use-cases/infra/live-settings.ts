/**
 * The run-time settings as one process applies them: the environment's values, overridden by the stored overrides
 * (shared/config/runtime-settings.ts) except where the environment pins a setting. A process keeps the last values
 * it read and re-reads the store when they are older than `maxAgeMs` (a request that finds them stale waits for the
 * read; a failed read keeps them; a fresh check costs one comparison), so a save reaches every process and Lambda instance within that time,
 * and the process that saved at once. On a change it calls its appliers (the rate limiter, the logger).
 */
import type { Env } from '#shared/config/env.js';
import {
  RUNTIME_SETTING_NAMES,
  type RuntimeSettingOverrides,
  type RuntimeSettings,
} from '#shared/config/runtime-settings.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { SettingsStore } from '#shared/ports/settings-store.port.js';

/** How long a process uses the values it read before reading them again. */
export const SETTINGS_MAX_AGE_MS = 5_000;

/** A part of the process that takes the settings where they apply (called once at start and on every change). */
export type SettingsApplier = (settings: RuntimeSettings) => void;

/** The settings the environment gives (its null retention is 0: keep everything). */
export function envSettings(
  env: Pick<Env, 'LOG_LEVEL' | 'RATE_LIMIT_MAX' | 'RATE_LIMIT_WINDOW_MS'> &
    Pick<Env, 'AUDIT_RETENTION_DAYS' | 'WEBHOOK_FAILURE_RETENTION_DAYS'>,
): RuntimeSettings {
  return {
    LOG_LEVEL: env.LOG_LEVEL,
    RATE_LIMIT_MAX: env.RATE_LIMIT_MAX,
    RATE_LIMIT_WINDOW_MS: env.RATE_LIMIT_WINDOW_MS,
    AUDIT_RETENTION_DAYS: env.AUDIT_RETENTION_DAYS ?? 0,
    WEBHOOK_FAILURE_RETENTION_DAYS: env.WEBHOOK_FAILURE_RETENTION_DAYS ?? 0,
  };
}

/** The values in force: the environment's, then the overrides of every setting it does not pin. */
export function effectiveSettings(
  env: Parameters<typeof envSettings>[0] & Pick<Env, 'ENV_PINNED'>,
  overrides: RuntimeSettingOverrides,
): RuntimeSettings {
  const settings: Record<string, unknown> = { ...envSettings(env) };
  for (const name of RUNTIME_SETTING_NAMES) {
    if (overrides[name] !== undefined && !env.ENV_PINNED.includes(name)) settings[name] = overrides[name];
  }
  return settings as RuntimeSettings;
}

/** One process's settings in force. */
export class LiveSettings {
  private settings: RuntimeSettings;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      env: Parameters<typeof effectiveSettings>[0];
      store: SettingsStore;
      clock: Clock;
      logger: Logger;
      appliers: readonly SettingsApplier[];
      maxAgeMs?: number;
    },
  ) {
    this.settings = envSettings(deps.env);
  }

  /** The values last read. */
  current(): RuntimeSettings {
    return this.settings;
  }

  /** Re-reads the store when the values are stale: undefined (no wait) while they are fresh. */
  refreshIfStale(): Promise<void> | undefined {
    if (this.deps.clock.now().getTime() - this.readAt < (this.deps.maxAgeMs ?? SETTINGS_MAX_AGE_MS)) return;
    this.reading ??= this.deps.store
      .read()
      .then((stored) => this.apply(stored.overrides))
      .catch((error: unknown) => {
        // The store is down: keep the values in force and try again after maxAgeMs, rather than fail requests.
        this.readAt = this.deps.clock.now().getTime();
        this.deps.logger.warn({ err: error }, 'run-time settings: read failed; the values in force stay');
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /** Takes overrides just saved (or read): applies them if they change anything, and restarts the age. */
  apply(overrides: RuntimeSettingOverrides): void {
    this.readAt = this.deps.clock.now().getTime();
    const next = effectiveSettings(this.deps.env, overrides);
    if (RUNTIME_SETTING_NAMES.every((name) => next[name] === this.settings[name])) return;
    this.settings = next;
    for (const applier of this.deps.appliers) applier(next);
  }
}
