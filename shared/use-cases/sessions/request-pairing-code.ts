import type { Caller } from '#shared/domain/caller.js';
import type { PairingCode } from '#shared/domain/host-operations.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { requireCapability } from '#shared/use-cases/engine/require-capability.js';
import { loadSession } from './load-session.js';

/**
 * Asks the session's engine for a pairing code to link by phone number (the session must be showing a QR). An
 * engine without pairing codes is refused with 501 before the session is read: it is the deployment's engine that
 * lacks them, whatever the session.
 */
export async function requestPairingCode(
  deps: Pick<CoreDeps, 'data' | 'host' | 'engine'>,
  caller: Caller,
  id: string,
  phoneNumber: string,
): Promise<PairingCode> {
  requireCapability(deps.engine, 'pairing_code');
  await loadSession(deps.data.sessions, caller, id);
  return deps.host.call('session.pairingCode', { sessionId: id, phone: phoneNumber });
}
