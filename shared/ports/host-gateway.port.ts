import type { Session } from '#shared/domain/session.js';

export interface QrSnapshot {
  /** The raw QR payload the engine produced (rendered to a PNG data URL by the caller). */
  qr: string;
  status: Session['status'];
}

export interface PairingCode {
  /** 8 characters to type on the phone (WhatsApp → Linked devices → Link with phone number). */
  pairingCode: string;
  status: Session['status'];
}

export interface HostStats {
  /** Engines running on this node. */
  activeEngines: number;
}

/**
 * Owner-directed operations: calls that need the host running the session's engine and an answer now. In the
 * embedded mode this is a direct call; in aws mode an authenticated HTTP call to the owner's nodeUrl.
 */
export interface HostGateway {
  /** Stops the engine (keeping credentials); the session ends `disconnected`. No engine: the row is settled. */
  stop(sessionId: string): Promise<Session>;
  /** Unlinks the device and wipes credentials. 400 when no engine runs; 502 SESSION_LOGOUT_INCOMPLETE on timeout. */
  logout(sessionId: string): Promise<Session>;
  /** Kills a stuck engine and tears the session down. 400 when no engine runs. */
  forceKill(sessionId: string): Promise<Session>;
  /** The current QR; 400 when none is showing (not started, or already authenticated). */
  getQr(sessionId: string): Promise<QrSnapshot>;
  /** An 8-character pairing code for `phone`; 400 not started or already authenticated, 501 unsupported. */
  requestPairingCode(sessionId: string, phone: string): Promise<PairingCode>;
  /** Stops any engine and wipes the session's credentials, ahead of deleting the row. */
  discard(sessionId: string): Promise<void>;
  /** Engines on this node; with `sessionIds`, only those of these sessions (a scoped caller's view). */
  stats(sessionIds?: readonly string[]): Promise<HostStats>;
}
