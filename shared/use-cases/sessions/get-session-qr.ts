import type { Caller } from '#shared/domain/caller.js';
import type { SessionStatus } from '#shared/domain/session.js';
import { AppError, SessionStateError } from '#shared/errors/app-error.js';
import { renderQrDataUrl } from '#shared/qr/render-qr.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';

export interface QrResponse {
  /** PNG data URL of the QR to scan with the phone. */
  qrCode: string;
  status: SessionStatus;
}

/**
 * The QR currently shown by the session's engine, as a PNG data URL; 400 when none is showing, naming the
 * session's last error when there is one (e.g. the server cannot be reached, so no QR can come).
 */
export async function getSessionQr(
  deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>,
  caller: Caller,
  id: string,
): Promise<QrResponse> {
  const session = await loadSession(deps.data.sessions, caller, id);
  const snapshot = await deps.host
    .call('session.qr', { sessionId: id })
    .catch((error: unknown) => explainMissingQr(deps, id, error));
  const qrCode = await renderQrDataUrl(snapshot.qr);
  // High-volume (clients poll the QR): written in the background.
  void deps.audit.record(caller, {
    action: 'session_qr_generated',
    sessionId: id,
    sessionName: session.name,
  });
  return { qrCode, status: snapshot.status };
}

/** Rethrows `error`; a QR_NOT_AVAILABLE gains the session's current `lastError` (read after the refusal). */
async function explainMissingQr(deps: Pick<CoreDeps, 'data'>, id: string, error: unknown): Promise<never> {
  if (!(error instanceof AppError) || error.code !== 'QR_NOT_AVAILABLE') throw error;
  const lastError = (await deps.data.sessions.findById(id))?.lastError;
  if (!lastError) throw error;
  throw new SessionStateError('QR_NOT_AVAILABLE', `${error.message}: ${lastError}`, { cause: error });
}
