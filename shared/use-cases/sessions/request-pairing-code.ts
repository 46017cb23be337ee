import type { Caller } from '#shared/domain/caller.js';
import type { PairingCode } from '#shared/domain/host-operations.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';

/** Asks the session's engine for a pairing code to link by phone number (the session must be showing a QR). */
export async function requestPairingCode(
  deps: Pick<CoreDeps, 'data' | 'host'>,
  caller: Caller,
  id: string,
  phoneNumber: string,
): Promise<PairingCode> {
  await loadSession(deps.data.sessions, caller, id);
  return deps.host.call('session.pairingCode', { sessionId: id, phone: phoneNumber });
}
