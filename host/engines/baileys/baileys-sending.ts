/**
 * The Baileys engine's sending: outgoing messages through the current socket, each kept in the recent-messages
 * store so the network's retry requests for it can be answered (the socket's `getMessage`).
 */
import type { proto, WASocket } from '@whiskeysockets/baileys';
import type { EngineMessaging, OutgoingMessage } from '#host/engines/ports/messaging.port.js';
import { toBaileysOutgoing } from './baileys-content.js';
import { toBaileysJid } from './baileys-jids.js';
import type { RecentMessages } from './recent-messages.js';

export class BaileysSending implements EngineMessaging {
  constructor(
    private readonly sessionId: string,
    private readonly socket: () => WASocket | null,
    private readonly recentMessages: RecentMessages,
  ) {}

  async send(message: OutgoingMessage): Promise<{ timestamp: number }> {
    const socket = this.socket();
    if (!socket) throw new Error('no open connection');
    const { content, quoted } = toBaileysOutgoing(message.chatId, message.content, message.attachment);
    const sent = await socket.sendMessage(toBaileysJid(message.chatId), content, {
      messageId: message.waMessageId,
      ...(message.timestamp === undefined ? {} : { timestamp: new Date(message.timestamp * 1000) }),
      ...(quoted ? { quoted } : {}),
    });
    if (sent?.message) this.recentMessages.remember(this.sessionId, message.waMessageId, sent.message);
    return { timestamp: Number(sent?.messageTimestamp ?? Math.floor(Date.now() / 1000)) };
  }

  /** A message this session sent recently, as sent (a recipient that could not decrypt it asks again). */
  sentMessage(waMessageId: string): proto.IMessage | undefined {
    return this.recentMessages.get(this.sessionId, waMessageId);
  }
}
