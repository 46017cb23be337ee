/**
 * Where the host's chat reports land: what an engine tells of chats (history, the account's app state from any
 * device, deletions, clears) and what every stored message says of its chat's activity, written to the chat store
 * (shared/domain/chat.ts). A session's writes are applied one batch at a time, in the order they were reported:
 * changes reported while a batch is written wait and go in the next one, so a burst of messages costs one write per
 * batch rather than one per message, and two writes of one chat never race (DynamoDB's is a read, then a
 * conditional put).
 */
import type { EngineEventHandlers } from '#host/engines/engine-events.js';
import type { ChatChange } from '#shared/domain/chat.js';
import type { Message } from '#shared/domain/message.js';
import type { ChatStore } from '#shared/ports/chat-store.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';

export interface ChatSinkDeps {
  chats: ChatStore;
  messages: Pick<MessageStore, 'deleteByChat'>;
  /** The media archive: the files of the messages a clear or delete removes go with them. */
  media: Pick<MediaStorage, 'delete'>;
  logger: Logger;
}

/** One queued write of a session: changes to apply, a chat to delete, or a chat whose messages go. */
type Work =
  | { kind: 'changes'; changes: ChatChange[] }
  | { kind: 'delete'; chatId: string }
  | { kind: 'clear'; chatId: string };

/** The chat change a stored message makes: its chat's last message and activity, and an unread one more. */
export function chatChangeOf(message: Message): ChatChange {
  const fromMe = message.direction === 'outgoing';
  const timestamp = message.timestamp ?? Math.floor(Date.parse(message.createdAt) / 1000);
  return {
    id: message.chatId,
    ...(message.chatName ? { name: message.chatName } : {}),
    lastMessage: {
      id: message.waMessageId ?? message.id,
      fromMe,
      author: fromMe ? null : message.author,
      type: message.type,
      body: message.body,
      timestamp,
    },
    ...(fromMe ? {} : { unread: { add: 1 } }),
  };
}

export class ChatSink {
  /** Per session: work not yet started, in report order. */
  private readonly queued = new Map<string, Work[]>();
  /** Per session: the batch being written, if any. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(private readonly deps: ChatSinkDeps) {}

  /** Chats the engine reported, or changes to them; resolves once written (never rejects: a failure is logged). */
  changed(sessionId: string, changes: readonly ChatChange[]): Promise<void> {
    if (changes.length === 0) return Promise.resolve();
    return this.enqueue(sessionId, { kind: 'changes', changes: [...changes] });
  }

  /** A message was stored (received, or sent by this session): its chat's last message and activity. */
  messageStored(message: Message): Promise<void> {
    return this.changed(message.sessionId, [chatChangeOf(message)]);
  }

  /** Chats deleted on the account: the chats and their stored messages go. */
  async deleted(sessionId: string, chatIds: readonly string[]): Promise<void> {
    for (const chatId of chatIds) await this.enqueue(sessionId, { kind: 'delete', chatId });
  }

  /** A chat's messages were cleared on the account: its stored messages go, and its last message. */
  cleared(sessionId: string, chatId: string): Promise<void> {
    return this.enqueue(sessionId, { kind: 'clear', chatId });
  }

  /** The session runner's handlers of an engine's chat reports (never rejecting: failures are logged). */
  handlers(sessionId: string): Pick<EngineEventHandlers, 'chatsChanged' | 'chatsDeleted' | 'chatCleared'> {
    return {
      chatsChanged: ({ changes }) => void this.changed(sessionId, changes),
      chatsDeleted: ({ chatIds }) => void this.deleted(sessionId, chatIds),
      chatCleared: ({ chatId }) => void this.cleared(sessionId, chatId),
    };
  }

  /** Resolves once everything reported so far is written (a shutdown waits for it before the stores close). */
  async drain(): Promise<void> {
    while (this.writing.size > 0) await Promise.allSettled([...this.writing.values()]);
  }

  private enqueue(sessionId: string, work: Work): Promise<void> {
    const queue = this.queued.get(sessionId);
    if (queue) queue.push(work);
    else this.queued.set(sessionId, [work]);
    return this.pump(sessionId);
  }

  /** Starts the session's next batch unless one is being written; resolves once the work queued now is written. */
  private pump(sessionId: string): Promise<void> {
    const current = this.writing.get(sessionId);
    if (current) return current.then(() => this.pump(sessionId));
    const batch = this.queued.get(sessionId);
    if (!batch) return Promise.resolve();
    this.queued.delete(sessionId);
    const written = this.write(sessionId, batch).finally(() => this.writing.delete(sessionId));
    this.writing.set(sessionId, written);
    return written;
  }

  private async write(sessionId: string, batch: readonly Work[]): Promise<void> {
    let changes: ChatChange[] = [];
    const flush = async () => {
      if (changes.length > 0) await this.deps.chats.apply(sessionId, changes);
      changes = [];
    };
    try {
      for (const work of batch) {
        if (work.kind === 'changes') {
          changes.push(...work.changes);
          continue;
        }
        await flush();
        await this.removeMessages(sessionId, work.chatId);
        if (work.kind === 'delete') await this.deps.chats.delete(sessionId, work.chatId);
        else await this.deps.chats.apply(sessionId, [{ id: work.chatId, cleared: true }]);
      }
      await flush();
    } catch (error) {
      // The chat list is derived data: a failed write leaves a chat behind until its next change, never a message.
      this.deps.logger.error({ err: error, sessionId }, 'writing chat changes failed');
    }
  }

  private async removeMessages(sessionId: string, chatId: string): Promise<void> {
    const files = await this.deps.messages.deleteByChat(sessionId, chatId);
    for (const path of files) {
      // A file left behind is space, not data: its row is gone, and the session's delete removes it at the latest.
      await this.deps.media.delete(path).catch((error: unknown) => {
        this.deps.logger.warn({ err: error, sessionId }, 'media of a cleared chat not deleted');
      });
    }
  }
}
