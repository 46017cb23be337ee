/**
 * The test engine's linked device at rest: the identity it logged in with, kept in the deployment's AuthStateStore
 * as a real engine keeps its credentials there. So the data export can carry it (includeCredentials), and a gateway
 * the export is imported into resumes the session without a QR though its own TestNetwork never saw the device.
 */
import type { AuthStateStore } from '#shared/ports/auth-state-store.port.js';
import { LinkedIdentity } from '../engine-events.js';

/** Reads, keeps and forgets the test device's identity in an auth-state store (opened on first use). */
export class TestDeviceStore {
  constructor(private readonly store: () => AuthStateStore) {}

  /** The identity a previous link left stored, if any. */
  async recall(sessionId: string): Promise<LinkedIdentity | undefined> {
    const text = await this.store().readCredentials(sessionId);
    return text === null ? undefined : LinkedIdentity.parse(JSON.parse(text));
  }

  /** Stores the identity the device logged in with. */
  keep(sessionId: string, identity: LinkedIdentity): Promise<void> {
    return this.store().writeCredentials(
      sessionId,
      JSON.stringify({ phone: identity.phone, pushName: identity.pushName }),
    );
  }

  /** Removes it (logout, delete): the next start shows a QR. */
  forget(sessionId: string): Promise<void> {
    return this.store().wipe(sessionId);
  }
}
