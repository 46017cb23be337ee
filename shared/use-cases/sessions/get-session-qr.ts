import type { Caller } from '../../domain/caller.js';
import type { SessionStatus } from '../../domain/session.js';
import { renderQrDataUrl } from '../../qr/render-qr.js';
import type { CoreDeps } from '../core-deps.js';
import { loadSession } from './load-session.js';

export interface QrResponse {
  /** PNG data URL of the QR to scan with the phone. */
  qrCode: string;
  status: SessionStatus;
}

/** The QR currently shown by the session's engine, as a PNG data URL; 400 when none is showing. */
export async function getSessionQr(
  deps: Pick<CoreDeps, 'data' | 'host' | 'audit'>,
  caller: Caller,
  id: string,
): Promise<QrResponse> {
  const session = await loadSession(deps.data.sessions, caller, id);
  const snapshot = await deps.host.getQr(id);
  const qrCode = await renderQrDataUrl(snapshot.qr);
  // High-volume (clients poll the QR): written in the background.
  void deps.audit.record(caller, {
    action: 'session_qr_generated',
    sessionId: id,
    sessionName: session.name,
  });
  return { qrCode, status: snapshot.status };
}
