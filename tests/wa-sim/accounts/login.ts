/**
 * Login of a linked companion: checks the claimed device against the registry and its noise key, replaces an
 * older connection of the same device (`conflict type=replaced`), counts the login (`connection-stats.ts`),
 * answers `<success>`, delivers what queued up while it was offline and ends the offline backlog with
 * `<ib><offline count/>`; a restricted account's companion then hears of its restriction again (`restriction.ts`).
 */

import type { Simulator } from '#tests/wa-sim/network/simulator.js';
import { type BinaryNode, lidJid, makeNode, SERVER_JID, unixNow } from '#tests/wa-sim/transport/binary.js';
import type { ClientHello } from '#tests/wa-sim/transport/noise-server.js';
import type { ClientConnection } from './accounts.js';
import { recordLogin } from './connection-stats.js';
import { announceRestrictionAtLogin } from './restriction.js';

/** Handles a handshake that carries a login payload (`username` + `device`). */
export function login(sim: Simulator, connection: ClientConnection, hello: ClientHello): void {
  const { payload, clientStatic } = hello;
  const phone = payload.username === null || payload.username === undefined ? '' : String(payload.username);
  const device = sim.accounts.companion(phone, payload.device ?? 0);
  if (!device || device.loggedOut || !device.noisePublic.equals(clientStatic)) {
    sim.log.info(`login refused for ${phone}:${payload.device ?? 0}`);
    connection.sendFailure(401);
    return;
  }
  for (const previous of device.connections) {
    if (previous !== connection) {
      previous.endWithStreamError(undefined, makeNode('conflict', { type: 'replaced' }));
    }
  }
  connection.device = device;
  device.connections.add(connection);
  device.connection = connection;
  // The replaced connections are still open here (they close once the stream error is flushed): they count.
  recordLogin(device, connection);
  const account = device.account;
  connection.send(
    makeNode('success', {
      t: String(unixNow()),
      props: '1',
      abprops: '1',
      location: 'wa-sim',
      creation: String(device.linkedAt),
      lid: lidJid(account.lid, device.deviceId),
      display_name: '',
    }),
  );
  const backlog = device.offline.splice(0);
  for (const node of backlog) sim.send(device, connection, markOffline(node));
  connection.send(
    makeNode('ib', { from: SERVER_JID }, [makeNode('offline', { count: String(backlog.length) })]),
  );
  // Like WhatsApp, the server reminds a companion of a restricted account once it is logged in.
  announceRestrictionAtLogin(device);
  sim.log.info(`login ${phone}:${device.deviceId} (connection ${connection.id}, ${backlog.length} offline)`);
}

function markOffline(node: BinaryNode): BinaryNode {
  return { ...node, attrs: { ...node.attrs, offline: '1' } };
}
