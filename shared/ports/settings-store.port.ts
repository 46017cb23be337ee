import type { RuntimeSettingOverrides } from '#shared/config/runtime-settings.js';

/** The run-time settings' stored overrides (shared/config/runtime-settings.ts) and when they were last saved. */
export interface StoredSettings {
  overrides: RuntimeSettingOverrides;
  /** ISO time of the last save; null when never saved. */
  updatedAt: string | null;
}

/** One record in the data store, shared by every process of the deployment. */
export interface SettingsStore {
  read(): Promise<StoredSettings>;
  /** Replaces the overrides. */
  write(settings: { overrides: RuntimeSettingOverrides; updatedAt: string }): Promise<void>;
}
