/**
 * Makes a Baileys module trust the simulator's root key. Baileys 7 checks the server's intermediate
 * certificate against `WA_CERT_DETAILS.PUBLIC_KEY`, a Buffer its noise handler reads in place, so overwriting
 * its bytes switches trust for every socket of that module: the patch is process-wide. Baileys 6 has no such
 * field and needs nothing.
 */

/** The part of the Baileys module this patch touches. */
export interface BaileysCertDetails {
  readonly WA_CERT_DETAILS?: { readonly PUBLIC_KEY?: Uint8Array };
}

/** Overwrites Baileys' pinned root key with the simulator's; returns a function restoring the original. */
export function trustSimulatorRootKey(baileys: BaileysCertDetails, rootKeyBase64: string): () => void {
  const pinned = baileys.WA_CERT_DETAILS?.PUBLIC_KEY;
  const rootKey = Buffer.from(rootKeyBase64, 'base64');
  if (rootKey.length !== 32) throw new Error('the simulator root key must be 32 bytes (base64)');
  if (!pinned) return () => undefined;
  if (pinned.length !== rootKey.length) throw new Error('unexpected WA_CERT_DETAILS.PUBLIC_KEY length');
  const original = Buffer.from(pinned);
  pinned.set(rootKey);
  return () => pinned.set(original);
}
