/**
 * The Baileys engine's inbound side: what a socket receives about messages, as engine events. Contacts' messages
 * become `messageReceived`, delivery states of our own messages `messageStatus` (mapping in baileys-messages.ts).
 */
import { jidDecode, type WASocket } from '@whiskeysockets/baileys';
import type { EngineEmitter } from '#host/engines/engine-events.js';
import { inboundFromBaileys, statusFromBaileys, statusFromOwnUpsert } from './baileys-messages.js';

/** Reports what `socket` receives about messages, for as long as it lives. */
export function listenInbound(socket: WASocket, events: EngineEmitter): void {
  // Both kinds of upsert carry contacts' messages: `notify` those that arrive live, `append` those the network
  // held while the device was offline (gateway down, connection dropped), delivered at the next login. Appends
  // also carry notifications, call stubs and newsletter posts: inboundFromBaileys keeps only contacts' texts, and
  // a message seen twice is stored once (unique network id). A socket being closed still reports what it received:
  // Baileys acknowledged those messages to the network already, which will not deliver them again.
  socket.ev.on('messages.upsert', ({ messages }) => {
    const phone = jidDecode(socket.authState.creds.me?.id ?? '')?.user ?? '';
    for (const message of messages) {
      const own = statusFromOwnUpsert(message);
      if (own) events.emit('messageStatus', own);
      const inbound = inboundFromBaileys(message, phone);
      if (inbound) events.emit('messageReceived', inbound);
    }
  });
  socket.ev.on('messages.update', (updates) => {
    for (const update of updates) {
      const status = statusFromBaileys(update);
      if (status) events.emit('messageStatus', status);
    }
  });
}
