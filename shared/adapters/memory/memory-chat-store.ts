/**
 * In-memory ChatStore: the unit-test fake, behaving like the SQLite adapter (changes through applyChatChange, copies
 * as a JSON column hands them back, the list order). Like the other memory stores it keeps no link to the session
 * store, so it takes chats of any session id.
 */
import {
  applyChatChange,
  type ChatChange,
  type ChatRecord,
  mostRecentFirst,
  newChat,
} from '#shared/domain/chat.js';
import type { Page } from '#shared/domain/common.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import { jsonCopy } from './memory-support.js';

/** Chats in a Map per session; every method is atomic because nothing in it awaits. */
export class MemoryChatStore implements ChatStore {
  private readonly bySession = new Map<string, Map<string, ChatRecord>>();

  async apply(sessionId: string, changes: readonly ChatChange[]): Promise<void> {
    if (changes.length === 0) return;
    const chats = this.bySession.get(sessionId) ?? new Map<string, ChatRecord>();
    for (const change of changes) {
      chats.set(change.id, jsonCopy(applyChatChange(chats.get(change.id) ?? newChat(change.id), change)));
    }
    this.bySession.set(sessionId, chats);
  }

  async findById(sessionId: string, chatId: string): Promise<ChatRecord | null> {
    const chat = this.bySession.get(sessionId)?.get(chatId);
    return chat === undefined ? null : jsonCopy(chat);
  }

  async list(sessionId: string, page: Page): Promise<ChatRecord[]> {
    const chats = [...(this.bySession.get(sessionId)?.values() ?? [])];
    return chats
      .sort(mostRecentFirst)
      .slice(page.offset, page.offset + page.limit)
      .map((chat) => jsonCopy(chat));
  }

  async delete(sessionId: string, chatId: string): Promise<boolean> {
    return this.bySession.get(sessionId)?.delete(chatId) ?? false;
  }

  async deleteBySession(sessionId: string): Promise<number> {
    const count = this.bySession.get(sessionId)?.size ?? 0;
    this.bySession.delete(sessionId);
    return count;
  }
}
