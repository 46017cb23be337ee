/**
 * The Baileys engine's contacts port (engine operation rows of shared/domain/engine-operations/contacts.ts): asks
 * the network through the live socket (usync for who is on WhatsApp and by which LID), so answers are live and
 * nothing is stored by the gateway.
 */
import type { WASocket } from '@whiskeysockets/baileys';
import type { PortOperations } from '#shared/domain/engine-operations/engine-operations.js';
import { toNeutralJid } from './baileys-jids.js';

export class BaileysContacts implements PortOperations<'contacts'> {
  constructor(private readonly socket: () => WASocket | null) {}

  private open(): WASocket {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    return socket;
  }

  /** usync's contact protocol: Baileys lists only the numbers that are on WhatsApp. */
  async checkNumber({ number }: { number: string }) {
    const socket = this.open();
    const [found] = (await socket.onWhatsApp(number)) ?? [];
    if (!found?.exists) return { number, exists: false, whatsappId: null, lid: null };
    // The LID as Baileys knows it (its mapping store, else a usync lid query); a lookup that fails leaves it out.
    const lid = await socket.signalRepository.lidMapping.getLIDForPN(found.jid).catch(() => null);
    return { number, exists: true, whatsappId: toNeutralJid(found.jid), lid: lid ? toNeutralJid(lid) : null };
  }
}
