/**
 * Encryption from a simulated device (a phone or a contact) to a real companion: starts the Signal session
 * from the companion's uploaded bundle on first use, then encrypts; gives the `<enc>` node to send.
 */
import type { CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import { companionAddress } from '#tests/wa-sim/accounts/directory.js';
import { takeCompanionBundle } from '#tests/wa-sim/accounts/keys.js';
import type { SignalDevice } from '#tests/wa-sim/crypto/signal-device.js';
import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, makeNode } from '#tests/wa-sim/transport/binary.js';

/** Encrypts padded message bytes from `sender` to `device`, starting a session when there is none. */
export async function sealForCompanion(
  sim: Simulator,
  sender: SignalDevice,
  device: CompanionDevice,
  padded: Uint8Array,
): Promise<BinaryNode> {
  const address = companionAddress(device);
  if (!sender.hasSession(address)) await sender.startSession(address, takeCompanionBundle(sim, device));
  const { type, ciphertext } = await sender.encrypt(address, padded);
  return makeNode('enc', { v: '2', type }, ciphertext);
}
