/**
 * Trusting a private WhatsApp-compatible server. Baileys pins WhatsApp's certificate root key; WA_SERVER_ROOT_KEY
 * (base64, 32 bytes) replaces it for this process, e.g. for the local network simulator. Process-wide by nature:
 * every socket of the Baileys module reads the same key.
 */
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys';

export function trustServerRootKey(rootKeyBase64: string): void {
  const key = Buffer.from(rootKeyBase64, 'base64');
  if (key.length !== WA_CERT_DETAILS.PUBLIC_KEY.length) {
    throw new Error(`WA_SERVER_ROOT_KEY must decode to ${WA_CERT_DETAILS.PUBLIC_KEY.length} bytes`);
  }
  WA_CERT_DETAILS.PUBLIC_KEY.set(key);
}
