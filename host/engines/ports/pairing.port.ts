/** The pairing port (capability `pairing_code`): linking by phone number instead of a QR. */
export interface EnginePairing {
  /** Asks the network for an 8-character code that links the device to `phone` (digits only). */
  requestPairingCode(phone: string): Promise<string>;
}
