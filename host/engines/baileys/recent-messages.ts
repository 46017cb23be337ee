/**
 * The engine message store: the newest sent messages per session (BAILEYS_MESSAGE_STORE_LIMIT, 5000 by default),
 * which Baileys needs to answer a recipient's retry request by re-encrypting the original. In memory: a retry
 * arrives seconds after a send, and after a restart the network re-asks the phone instead.
 */
import type { proto } from '@whiskeysockets/baileys';

export class RecentMessages {
  private readonly bySession = new Map<string, Map<string, proto.IMessage>>();

  constructor(private readonly limit: number) {}

  remember(sessionId: string, waMessageId: string, message: proto.IMessage): void {
    let messages = this.bySession.get(sessionId);
    if (!messages) {
      messages = new Map();
      this.bySession.set(sessionId, messages);
    }
    messages.set(waMessageId, message);
    if (messages.size > this.limit) {
      const oldest = messages.keys().next().value;
      if (oldest !== undefined) messages.delete(oldest);
    }
  }

  get(sessionId: string, waMessageId: string): proto.IMessage | undefined {
    return this.bySession.get(sessionId)?.get(waMessageId);
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}
