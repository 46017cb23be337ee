import type { ChatChange, ChatRecord } from '#shared/domain/chat.js';
import type { Page } from '#shared/domain/common.js';

/**
 * The chat list of each session (shared/domain/chat.ts): what the engine reported of each chat and what the stored
 * messages say of its last activity. Written by the host that runs the session, read by the chat routes.
 */
export interface ChatStore {
  /**
   * Applies each change to its chat in order (applyChatChange's rules), creating a chat the store does not hold. A
   * change of one chat is applied whole or not at all; an unknown session raises NotFoundError where the store
   * knows sessions (SQLite, DynamoDB).
   */
  apply(sessionId: string, changes: readonly ChatChange[]): Promise<void>;
  findById(sessionId: string, chatId: string): Promise<ChatRecord | null>;
  /**
   * A page of the session's chats, most recent first: by timestamp descending, chats without one last, then by id
   * (code-unit order) for a stable order between pages.
   */
  list(sessionId: string, page: Page): Promise<ChatRecord[]>;
  /** Forgets a chat (deleted on the account); false when it was not stored. */
  delete(sessionId: string, chatId: string): Promise<boolean>;
  /** Forgets every chat of a session (session delete); answers how many. */
  deleteBySession(sessionId: string): Promise<number>;
}
