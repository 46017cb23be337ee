/**
 * Client connections and what they send: takes over an upgraded WebSocket, sends its handshake to linking or
 * to login, and hands every node to the handler of its kind (iqs by namespace through `iq-router.ts`).
 */
import type { WebSocket } from 'ws';
import type { ClientConnection, CompanionDevice } from '#tests/wa-sim/accounts/accounts.js';
import { login } from '#tests/wa-sim/accounts/login.js';
import { handleCallAck, handleClientCall } from '#tests/wa-sim/messaging/calls.js';
import { handleClientMessage } from '#tests/wa-sim/messaging/messaging.js';
import { handleChatstate, handlePresence } from '#tests/wa-sim/messaging/presence.js';
import { handleClientReceipt } from '#tests/wa-sim/messaging/receipts.js';
import type { BinaryNode } from '#tests/wa-sim/transport/binary.js';
import { SimConnection } from '#tests/wa-sim/transport/connection.js';
import { NoiseServer } from '#tests/wa-sim/transport/noise-server.js';
import { routeIq } from './iq-router.js';
import type { Simulator } from './simulator.js';

/** Takes over an upgraded WebSocket as a client connection of `sim`. */
export function attachClient(sim: Simulator, socket: WebSocket): ClientConnection {
  const noise = new NoiseServer(sim.staticKeys, sim.certChain);
  const connection = new SimConnection<CompanionDevice>(
    socket,
    noise,
    {
      onAuthenticated: async (conn, hello) => {
        if (hello.payload.devicePairingData) sim.pairing.register(conn, hello);
        else login(sim, conn, hello);
      },
      onNode: (conn, node) => dispatch(sim, conn, node),
      onClose: (conn) => sim.detach(conn),
    },
    sim.log,
  );
  sim.connections.add(connection);
  return connection;
}

async function dispatch(sim: Simulator, connection: ClientConnection, node: BinaryNode): Promise<void> {
  if (node.tag === 'iq') {
    const reply = await routeIq(sim, connection, node);
    if (reply) connection.send(reply);
    return;
  }
  if (!connection.device) return;
  switch (node.tag) {
    case 'message':
      await handleClientMessage(sim, connection, node);
      return;
    case 'receipt':
      handleClientReceipt(sim, connection, node);
      return;
    case 'presence':
      handlePresence(sim, connection, node);
      return;
    case 'chatstate':
      handleChatstate(sim, connection, node);
      return;
    case 'call':
      handleClientCall(sim, connection, node);
      return;
    case 'ack':
      if (node.attrs.class === 'call') handleCallAck(sim, node);
      // A client acks (rather than receipts) a message it could not handle: it is settled all the same.
      if (node.attrs.class === 'message' && node.attrs.id) sim.acknowledged(connection.device, node.attrs.id);
      return;
    default:
      // Other acks and ib telemetry need no answer.
      return;
  }
}
