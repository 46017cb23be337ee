/** In-memory SettingsStore. */
import type { SettingsStore, StoredSettings } from '#shared/ports/settings-store.port.js';

/** The run-time settings in a field. */
export class MemorySettingsStore implements SettingsStore {
  private stored: StoredSettings = { overrides: {}, updatedAt: null };

  async read(): Promise<StoredSettings> {
    return { overrides: { ...this.stored.overrides }, updatedAt: this.stored.updatedAt };
  }

  async write(settings: StoredSettings & { updatedAt: string }): Promise<void> {
    this.stored = { overrides: { ...settings.overrides }, updatedAt: settings.updatedAt };
  }
}
