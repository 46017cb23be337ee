/** The Baileys engine's pairing port: an 8-character code that links the device by phone number. */
import type { WASocket } from '@whiskeysockets/baileys';
import type { EnginePairing } from '#host/engines/ports/pairing.port.js';

export class BaileysPairing implements EnginePairing {
  constructor(private readonly socket: () => WASocket | null) {}

  /** Asks the server for a pairing code for `phone` (digits only) on the socket showing QRs. */
  async requestPairingCode(phone: string): Promise<string> {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket.requestPairingCode(phone);
  }
}
