/**
 * Queues again the sends a crash may have orphaned. A send stores its row (`pending`), then queues the command that
 * sends it; a process that dies between the two leaves a row nothing will send. The request got no answer, so its
 * client may retry it (with an Idempotency-Key, the retry queues the row again: send-message.ts) or not. When a
 * session's engine is launched, its newest outgoing rows still `pending` get their command again: a command that is
 * still queued makes the new one a duplicate (dropped within the queue's deduplication window, else carried out as
 * a no-op: the host skips a row no longer pending). Only the newest `scan` rows are read: orphans are the last
 * sends before a crash, and nothing is sent from a session while its engine is down.
 */
import type { Message } from '#shared/domain/message.js';
import type { Session } from '#shared/domain/session.js';
import { personalChatId } from '#shared/domain/wa-ids.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { queueSend } from './queue-send.js';

const PAGE = 100;

/** Answers how many pending sends were queued again. */
export async function requeuePendingSends(
  deps: Pick<CoreDeps, 'data' | 'commands'>,
  session: Pick<Session, 'id' | 'phone'>,
  scan = 1_000,
): Promise<number> {
  if (!session.phone) return 0;
  const pending: Message[] = [];
  for (let offset = 0; offset < scan; offset += PAGE) {
    const { messages } = await deps.data.messages.list(
      { sessionId: session.id, from: personalChatId(session.phone) },
      { limit: Math.min(PAGE, scan - offset), offset },
    );
    for (const message of messages) {
      if (message.direction === 'outgoing' && message.status === 'pending') pending.push(message);
    }
    if (messages.length < PAGE) break;
  }
  // Oldest first, so they go out in the order they were written.
  for (const message of pending.reverse()) await queueSend(deps.commands, message);
  return pending.length;
}
