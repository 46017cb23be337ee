/**
 * Sends a message of any kind (spec: POST …/messages/send-*): refuses unless the session is ready (action_required
 * refuses sends too), stores the message as `pending` with a pre-generated network id, queues the send for the host
 * that runs the engine, and waits up to `waitMs` until the host says it settled (MessageOutcomes: no polling). It
 * answers 201 with the row as it stands then: `sent` with its network id, `failed`, or still `pending` (the send
 * goes on; `message.sent`/`message.ack` report it).
 */
import { randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.js';
import { checkContent, storedContent } from '#shared/domain/content-kinds.js';
import type { Message } from '#shared/domain/message.js';
import type { SendDraft } from '#shared/domain/send-requests.js';
import { generateWaMessageId, personalChatId } from '#shared/domain/wa-ids.js';
import { SessionStateError, UnavailableError } from '#shared/errors/app-error.js';
import type { MessageOutcomes } from '#shared/ports/message-outcomes.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { resolveDraft } from './resolve-draft.js';

export interface SendRequest {
  chatId: string;
  /** What to send; the messages it names (a quote, a reaction's target…) are resolved in the session's history. */
  content: SendDraft;
  /**
   * Kept in the stored row's metadata beside the content's own: the gateway marks what it sends on its own behalf
   * (an autoreply carries `{ autoreply: ruleId }`), so history shows it and the loop guard recognises it.
   */
  metadata?: Record<string, unknown>;
}

export type SendDeps = Pick<CoreDeps, 'data' | 'commands' | 'clock' | 'logger'> & {
  outcomes: MessageOutcomes;
};

export async function sendMessage(
  deps: SendDeps,
  caller: Caller,
  sessionId: string,
  request: SendRequest,
  waitMs: number,
): Promise<Message> {
  const session = await loadSession(deps.data.sessions, caller, sessionId);
  if (session.status === 'action_required') {
    throw new SessionStateError(
      'SESSION_NOT_READY',
      `Sends are refused while the session needs action: ${session.lastError ?? ''}`.trim(),
    );
  }
  if (session.status !== 'ready' || !session.phone) {
    throw new SessionStateError('SESSION_NOT_READY', `Session is not ready (status ${session.status})`);
  }
  const content = await resolveDraft(
    {
      messages: deps.data.messages,
      sessionId,
      chatId: request.chatId,
      now: Math.floor(deps.clock.now().getTime() / 1000),
    },
    request.content,
  );
  checkContent(content);
  const stored = storedContent(content);
  const message: Message = {
    id: randomUUID(),
    sessionId,
    waMessageId: generateWaMessageId(),
    chatId: request.chatId,
    chatName: null,
    author: null,
    from: personalChatId(session.phone),
    to: request.chatId,
    ...stored,
    metadata: request.metadata ? { ...stored.metadata, ...request.metadata } : stored.metadata,
    direction: 'outgoing',
    timestamp: null,
    status: 'pending',
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.data.messages.insert(message);
  // Waiting starts before the command is queued, so an outcome that comes at once is not missed.
  const settled = deps.outcomes.settled(sessionId, message.id, waitMs);
  try {
    await deps.commands.send(
      { type: 'message.send', sessionId, messageId: message.id, requestedAt: message.createdAt },
      { dedupId: `send:${message.id}` },
    );
  } catch (error) {
    await deps.data.messages.advanceStatus(sessionId, message.waMessageId ?? '', 'failed');
    deps.logger.error({ err: error, sessionId }, 'send command could not be queued');
    throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'The command queue is unavailable; retry', {
      cause: error,
    });
  }
  await settled;
  return (await deps.data.messages.findById(sessionId, message.id)) ?? message;
}
