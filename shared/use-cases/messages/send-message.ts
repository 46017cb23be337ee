/**
 * Sends a message of any kind (spec: POST …/messages/send-*): refuses unless the session is ready (action_required
 * refuses sends too), stores the message as `pending` with a pre-generated network id, queues the send for the host
 * that runs the engine, and waits up to `waitMs` until the host says it settled (MessageOutcomes: no polling). It
 * answers 201 with the row as it stands then: `sent` with its network id, `failed`, or still `pending` (the send
 * goes on; `message.sent`/`message.ack` report it). With an idempotency key, a retry answers the first request's
 * message instead of sending another (send-idempotency.ts).
 */
import type { Caller } from '#shared/domain/caller.js';
import { checkContent, storedContent } from '#shared/domain/content-kinds.js';
import { messageFailedEvent } from '#shared/domain/events.js';
import type { Message, MessageView } from '#shared/domain/message.js';
import type { OutgoingContent } from '#shared/domain/outgoing-content.js';
import { personLookup } from '#shared/domain/person-ids.js';
import { newRecordId } from '#shared/domain/record-id.js';
import type { SendDraft } from '#shared/domain/send-requests.js';
import type { Session } from '#shared/domain/session.js';
import { generateWaMessageId, personalChatId } from '#shared/domain/wa-ids.js';
import { SessionStateError, UnavailableError } from '#shared/errors/app-error.js';
import { outboxEntry } from '#shared/ports/event-outbox.port.js';
import type { MessageOutcomes } from '#shared/ports/message-outcomes.port.js';
import type { StatusChange } from '#shared/ports/message-store.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { lookUpPeople } from '#shared/use-cases/people/look-up-people.js';
import { loadSession } from '#shared/use-cases/sessions/load-session.js';
import { type DraftFiles, discardDraftFile } from './draft-media.js';
import { messageView } from './message-views.js';
import { queueSend } from './queue-send.js';
import { resolveDraft } from './resolve-draft.js';
import { claimSendKey } from './send-idempotency.js';
import type { SendPacer } from './send-pacing.js';

export interface SendRequest {
  chatId: string;
  /** What to send; the messages it names (a quote, a reaction's target…) are resolved in the session's history. */
  content: SendDraft;
  /**
   * Kept in the stored row's metadata beside the content's own: the gateway marks what it sends on its own behalf
   * (an autoreply carries `{ autoreply: ruleId }`), so history shows it and the loop guard recognises it.
   */
  metadata?: Record<string, unknown>;
  /**
   * The client's Idempotency-Key (validated by the transport; per session, 24 h): the first request with it sends, a
   * retry with the same chatId, content and metadata answers that first message, another body is 422.
   */
  idempotencyKey?: string;
}

/** What a send answers: the message as it stands, and whether an earlier request with its key sent it. */
export interface SentMessage {
  message: MessageView;
  replayed: boolean;
}

export type SendDeps = Pick<CoreDeps, 'data' | 'commands' | 'clock' | 'logger'> & {
  outcomes: MessageOutcomes;
  /** Send pacing (send-pacing.ts), present only with SEND_PACING_ENABLED. */
  pacing?: SendPacer | null;
  /** Media sends' files; without it (the host's own sends) media is refused. */
  files?: DraftFiles;
};

/** Sends (see above) and answers the message as it stands. */
export async function sendMessage(
  deps: SendDeps,
  caller: Caller,
  sessionId: string,
  request: SendRequest,
  waitMs: number,
): Promise<Message> {
  return (await sendOrReplay(deps, caller, sessionId, request, waitMs)).message;
}

/** sendMessage, also telling whether the answer replays an earlier request's (REST says so in a header). */
export async function sendOrReplay(
  deps: SendDeps,
  caller: Caller,
  sessionId: string,
  request: SendRequest,
  waitMs: number,
): Promise<SentMessage> {
  const session = await loadSession(deps.data.sessions, caller, sessionId);
  const id = newRecordId();
  // The key is claimed before the session's state and the content are checked: a retry answers what its first
  // request sent even when the session is no longer ready, or the message it edited is past the edit window.
  const claim =
    request.idempotencyKey === undefined
      ? null
      : await claimSendKey(deps, sessionId, request.idempotencyKey, request, id);
  if (claim?.kind === 'replay') {
    // A first request cut off between storing its row and queueing its command (the process died) left the row
    // pending with nothing to send it: the retry queues it again. The command's deduplication id is the first's, so
    // a command that did make it to the queue makes this one a no-op; and the host skips a row no longer pending.
    if (claim.message.status === 'pending') await queueSend(deps.commands, claim.message);
    const earlier = await settledMessage(deps, claim.message, waitMs);
    return { message: await messageView(deps.data.identities, earlier), replayed: true };
  }
  let message: Message;
  let content: OutgoingContent | undefined;
  try {
    checkSessionCanSend(session);
    content = await resolveDraft(
      {
        messages: deps.data.messages,
        sessionId,
        chatId: request.chatId,
        now: Math.floor(deps.clock.now().getTime() / 1000),
        ...(deps.files ? { files: { ...deps.files, messageId: id } } : {}),
      },
      request.content,
    );
    checkContent(content);
    await deps.pacing?.admit(caller, session, request.chatId, content);
    message = outgoingMessage(deps, session, id, request, content);
    await deps.data.messages.insert(message);
  } catch (error) {
    await claim?.giveUp();
    await discardDraftFile(deps.files, content, deps.logger);
    throw error;
  }
  // Waiting starts before the command is queued, so an outcome that comes at once is not missed.
  const settled = deps.outcomes.settled(sessionId, message.id, waitMs);
  try {
    await queueSend(deps.commands, message);
  } catch (error) {
    const change = await markUnqueued(deps, message);
    // Failed before any host took it: nothing went out, so a retry with the key may send afresh.
    if (change.outcome === 'updated') await claim?.giveUp();
    deps.logger.error({ err: error, sessionId }, 'send command could not be queued');
    throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'The command queue is unavailable; retry', {
      cause: error,
    });
  }
  await settled;
  const stored = (await deps.data.messages.findById(sessionId, message.id)) ?? message;
  return { message: await messageView(deps.data.identities, stored), replayed: false };
}

/**
 * Marks a message whose command could not be queued `failed`. Its `message.failed` is stored with the status write,
 * in the outbox, and the host's relay sweep delivers it: no host ever took the message to announce it.
 */
async function markUnqueued(deps: SendDeps, message: Message): Promise<StatusChange> {
  const now = deps.clock.now();
  // Without the pairings the event still names the chat as it was sent to: the failure must be recorded.
  const people = await lookUpPeople(deps.data.identities, message.sessionId, [message.chatId]).catch(() =>
    personLookup(new Map()),
  );
  const event = messageFailedEvent(message, 'the command queue is unavailable', now, people);
  return deps.data.messages.advanceStatus(
    message.sessionId,
    message.waMessageId ?? '',
    'failed',
    undefined,
    (c) => (c.outcome === 'updated' ? outboxEntry(event, now) : null),
  );
}

/** Refuses a session that cannot send now (400 SESSION_NOT_READY; action_required refuses sends too). */
export function checkSessionCanSend(session: Session): asserts session is Session & { phone: string } {
  if (session.status === 'action_required') {
    throw new SessionStateError(
      'SESSION_NOT_READY',
      `Sends are refused while the session needs action: ${session.lastError ?? ''}`.trim(),
    );
  }
  if (session.status !== 'ready' || !session.phone) {
    throw new SessionStateError('SESSION_NOT_READY', `Session is not ready (status ${session.status})`);
  }
}

/** The row of a new outgoing message of a session that can send. */
function outgoingMessage(
  deps: SendDeps,
  session: Session & { phone: string },
  id: string,
  request: SendRequest,
  content: OutgoingContent,
): Message {
  const stored = storedContent(content);
  const now = deps.clock.now();
  return {
    id,
    sessionId: session.id,
    waMessageId: generateWaMessageId(),
    chatId: request.chatId,
    chatName: null,
    author: null,
    from: personalChatId(session.phone),
    to: request.chatId,
    ...stored,
    metadata: request.metadata ? { ...stored.metadata, ...request.metadata } : stored.metadata,
    direction: 'outgoing',
    // The time the message was written, as WhatsApp stamps a message when it is composed, not when the network
    // takes it: the engine sends it under this time, so history orders a pending message where it belongs and
    // the `sent` write changes the status alone (a new timestamp would move the row in four indexes).
    timestamp: Math.floor(now.getTime() / 1000),
    status: 'pending',
    createdAt: now.toISOString(),
  };
}

/** An earlier request's message once it settled (waiting up to `waitMs` like that request did), or as it stands. */
async function settledMessage(deps: SendDeps, message: Message, waitMs: number): Promise<Message> {
  if (message.status !== 'pending') return message;
  const current = async () => (await deps.data.messages.findById(message.sessionId, message.id)) ?? message;
  await deps.outcomes.settled(
    message.sessionId,
    message.id,
    waitMs,
    async () => (await current()).status !== 'pending',
  );
  return current();
}
