/**
 * A chat looked up by any id of its person: WhatsApp names a contact by phone number or by LID, and the chat list
 * keeps the chat under the id it was first reported by, so `@lid` works wherever a chat id does (and the phone form
 * of a chat kept under its LID) once the pairing is known (IdentityStore).
 */
import type { ChatRecord } from '#shared/domain/chat.js';
import { isPersonId } from '#shared/domain/person-ids.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import type { IdentityStore } from '#shared/ports/identity-store.port.js';

export function chatByAnyId(
  chats: Pick<ChatStore, 'findById'>,
  identities: Pick<IdentityStore, 'aliasesOf'>,
): Pick<ChatStore, 'findById'> {
  return {
    async findById(sessionId: string, chatId: string): Promise<ChatRecord | null> {
      const chat = await chats.findById(sessionId, chatId);
      if (chat || !isPersonId(chatId)) return chat;
      for (const alias of await identities.aliasesOf(sessionId, chatId)) {
        const found = await chats.findById(sessionId, alias);
        if (found) return found;
      }
      return null;
    },
  };
}
