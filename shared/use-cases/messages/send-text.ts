/**
 * Sends a text (spec: POST …/messages/send-text): refuses unless the session is ready (action_required refuses
 * sends too), stores the message as `pending` with a pre-generated network id, queues the send for the host that
 * runs the engine, and waits up to `waitMs` for the outcome. It answers 201 with the row as it stands then: `sent`
 * with its network id, or still `pending` (the send goes on; `message.sent`/`message.ack` report it).
 */
import { randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.js';
import type { Message, SendTextBody } from '#shared/domain/message.js';
import { generateWaMessageId, personalChatId } from '#shared/domain/wa-ids.js';
import { SessionStateError, UnavailableError, ValidationError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';

const POLL_MS = 15;

/** Every mention needs a matching `@<number>` token in the text (as WhatsApp renders them). */
function assertMentionsInText(text: string, mentions: readonly string[]): void {
  for (const mention of mentions) {
    const number = mention.split('@')[0] ?? '';
    if (!text.includes(`@${number}`)) {
      throw new ValidationError(`text must contain @${number} for the mention ${mention}`);
    }
  }
}

export async function sendText(
  deps: Pick<CoreDeps, 'data' | 'commands' | 'clock' | 'logger'>,
  caller: Caller,
  sessionId: string,
  body: SendTextBody,
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
  if (body.mentions) assertMentionsInText(body.text, body.mentions);
  const now = deps.clock.now();
  const message: Message = {
    id: randomUUID(),
    sessionId,
    waMessageId: generateWaMessageId(),
    chatId: body.chatId,
    chatName: null,
    author: null,
    from: personalChatId(session.phone),
    to: body.chatId,
    body: body.text,
    type: 'text',
    direction: 'outgoing',
    timestamp: null,
    metadata: body.mentions?.length ? { mentions: body.mentions } : null,
    status: 'pending',
    mediaPath: null,
    mediaMimetype: null,
    createdAt: now.toISOString(),
  };
  await deps.data.messages.insert(message);
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
  const deadline = Date.now() + waitMs;
  let current: Message | null = message;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = await deps.data.messages.findById(sessionId, message.id);
    if (current?.status !== 'pending') break;
  }
  return current ?? message;
}
