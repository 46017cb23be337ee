/**
 * A companion logging itself out: `<iq xmlns=md type=set><remove-companion-device jid reason=user_initiated>`
 * (Baileys `logout()`). The server unlinks the device, answers the iq and closes the device's connections;
 * later logins of the device get `<failure reason=401>`. An account can be told to hold these iqs (no reply,
 * nothing unlinked, the socket left alone) until the hold is released, which then answers and processes them
 * in order.
 */

import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, iqResult, makeNode } from '#tests/wa-sim/transport/binary.js';
import type { Account, ClientConnection, CompanionDevice, HeldLogout } from './accounts.js';

/** Unlinks the device and answers the iq, or keeps the iq unanswered while the account holds logouts. */
export function handleRemoveCompanion(
  sim: Simulator,
  connection: ClientConnection,
  iq: BinaryNode,
  device: CompanionDevice,
): void {
  const account = device.account;
  if (!account.logoutHold) {
    completeLogout(sim, { connection, device, iq });
    return;
  }
  account.heldLogouts.push({ connection, device, iq });
  sim.log.info(`${account.phone}:${device.deviceId} logout held (no answer until released)`);
}

/** Holds the account's client logouts from now on, or releases the hold and answers every held logout. */
export function setLogoutHold(sim: Simulator, account: Account, hold: boolean): number {
  account.logoutHold = hold;
  if (hold) return 0;
  const held = account.heldLogouts.splice(0);
  for (const logout of held) completeLogout(sim, logout);
  return held.length;
}

/**
 * Unlinks the device, answers the iq (dropped if the client already closed its socket, as Baileys does right
 * after sending it) and closes that socket; any other live connection of the device (a login made while the
 * logout was held) is told the device was removed (401).
 */
function completeLogout(sim: Simulator, { connection, device, iq }: HeldLogout): void {
  device.loggedOut = true;
  device.offline.length = 0;
  device.unacked.clear();
  connection.send(iqResult(iq));
  connection.closeSoon();
  for (const other of device.connections) {
    if (other !== connection)
      other.endWithStreamError('401', makeNode('conflict', { type: 'device_removed' }));
  }
  sim.log.info(`${device.account.phone}:${device.deviceId} logged out by the client`);
}
