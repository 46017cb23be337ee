import type { Message } from '#shared/domain/message.js';
import type { CommandQueue } from '#shared/queue/command-queue.js';

/**
 * Queues the command that sends a stored outgoing row. Its deduplication id is the row's, so queueing one row twice
 * (a retry, a recovery) adds no second command within the queue's deduplication window.
 */
export function queueSend(commands: CommandQueue, message: Message): Promise<string> {
  return commands.send(
    {
      type: 'message.send',
      sessionId: message.sessionId,
      messageId: message.id,
      requestedAt: message.createdAt,
    },
    { dedupId: `send:${message.id}` },
  );
}
