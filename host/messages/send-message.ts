/**
 * Carries out a `message.send` command: sends the stored outgoing row through the session's engine under its
 * pre-generated network id, then marks it sent (or failed) and publishes the outcome. A command for a row that is
 * no longer pending (a redelivery after success) does nothing, so a message is never sent twice by the gateway.
 */

import type { OutgoingMessage } from '#host/engines/ports/messaging.port.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import type { CommandOf } from '#shared/domain/commands.js';
import { contentOfStored } from '#shared/domain/content-kinds.js';
import { LEGACY_ACK, messageEventData } from '#shared/domain/events.js';
import { isStatusAdvance, type Message } from '#shared/domain/message.js';
import type { MessageChange } from '#shared/domain/message-changes.js';
import { type ChangeContent, isChangeContent, isMediaContent } from '#shared/domain/outgoing-content.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MediaStorage } from '#shared/ports/media-storage.port.js';
import type { MessageOutcomeNotifier } from '#shared/ports/message-outcomes.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import type { MessageSink } from './message-sink.js';
import type { SettledSends } from './settled-sends.js';

export interface SendDeps {
  messages: MessageStore;
  sink: MessageSink;
  runnerOf(sessionId: string): SessionRunner | undefined;
  /** Sends of this host in progress, by message id: a redelivery meanwhile must not send a second time. */
  inFlight: Set<string>;
  /** How long a send waits for a started session (connecting, reconnecting) to be ready before failing. */
  readyWaitMs: number;
  /** Told once a message is settled, so the request waiting for it answers at once. */
  outcomes: MessageOutcomeNotifier;
  /** Audits settled sends and tells the send breaker (settled-sends.ts); recorded before the waiting request hears. */
  settled?: SettledSends;
  logger: Logger;
  /** Where a media kind's file is archived: read back when it is sent. */
  media: MediaStorage;
}

async function waitUntilConnected(
  runnerOf: SendDeps['runnerOf'],
  sessionId: string,
  ms: number,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const runner = runnerOf(sessionId);
    if (!runner) return false;
    if (runner.isConnected) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function sendMessage(deps: SendDeps, command: CommandOf<'message.send'>): Promise<void> {
  const { sessionId, messageId } = command;
  const message = await deps.messages.findById(sessionId, messageId);
  if (message?.status !== 'pending' || !message.waMessageId) return;
  const waMessageId = message.waMessageId;
  const fail = async (error: string, cause?: unknown) => {
    const { entry } = await deps.sink.advanceWithEvent(sessionId, waMessageId, 'failed', undefined, (c) =>
      c.outcome !== 'updated'
        ? null
        : {
            event: 'message.failed',
            sessionId,
            occurredAt: new Date().toISOString(),
            data: {
              id: message.id,
              messageId: waMessageId,
              chatId: message.chatId,
              status: 'failed',
              ack: LEGACY_ACK.failed,
              error,
            },
          },
    );
    if (entry) await deps.settled?.failed(message, error, cause);
    deps.outcomes.notify(sessionId, messageId);
    if (entry) await deps.sink.announce(entry);
  };
  if (deps.inFlight.has(messageId)) {
    throw new UnavailableError(
      'HOST_UNAVAILABLE',
      'this message is being sent; the command is retried later',
    );
  }
  const content = contentOfStored(message);
  if (!content) {
    await fail(`a stored ${message.type} message holds nothing that can be sent`);
    return;
  }
  let attachment: Uint8Array | undefined;
  if (isMediaContent(content)) {
    const file = await deps.media.get(content.file.path);
    if (!file) {
      await fail(`the ${content.type}'s file is no longer in the media archive`);
      return;
    }
    attachment = file.bytes;
  }
  deps.inFlight.add(messageId);
  try {
    await sendNow(
      deps,
      message,
      { chatId: message.chatId, waMessageId, content, ...(attachment ? { attachment } : {}) },
      fail,
    );
  } finally {
    deps.inFlight.delete(messageId);
    deps.outcomes.notify(sessionId, messageId);
  }
}

async function sendNow(
  deps: SendDeps,
  message: Message,
  outgoing: OutgoingMessage,
  fail: (error: string, cause?: unknown) => Promise<void>,
): Promise<void> {
  const { sessionId } = message;
  // A session that is started but still connecting (e.g. resuming after a restart) gets a moment to be ready.
  if (!(await waitUntilConnected(deps.runnerOf, sessionId, deps.readyWaitMs))) {
    await fail('session is not connected');
    return;
  }
  const runner = deps.runnerOf(sessionId);
  if (!runner) {
    await fail('session is not connected');
    return;
  }
  let timestamp: number;
  try {
    ({ timestamp } = await runner.send(outgoing));
  } catch (error) {
    await fail(error instanceof Error ? error.message : 'send failed', error);
    return;
  }
  // `unchanged` with delivered/read: the network's ack overtook this write (it can arrive before the send
  // resolves). The message was still sent here, once, and its `message.sent` is still owed.
  const { entry } = await deps.sink.advanceWithEvent(
    sessionId,
    outgoing.waMessageId,
    'sent',
    timestamp,
    (c) =>
      c.outcome === 'unchanged' && !isStatusAdvance('sent', c.message.status)
        ? null
        : {
            event: 'message.sent',
            sessionId,
            occurredAt: new Date().toISOString(),
            data: messageEventData(c.message),
          },
  );
  // A reaction, edit or revoke now shows on the message it points at; the answer waits for that, so the history a
  // client reads after the 201 already shows it.
  if (isChangeContent(outgoing.content)) await applyOwnChange(deps, message, outgoing.content, timestamp);
  await deps.settled?.sent(message);
  deps.outcomes.notify(sessionId, message.id);
  if (entry) await deps.sink.announce(entry);
}

async function applyOwnChange(
  deps: SendDeps,
  message: Message,
  content: ChangeContent,
  timestamp: number,
): Promise<void> {
  const by = { chatId: message.chatId, senderId: message.from, timestamp };
  const change: MessageChange =
    content.type === 'reaction'
      ? { ...by, kind: 'reaction', emoji: content.emoji }
      : content.type === 'edit'
        ? {
            ...by,
            kind: 'edit',
            body: content.text,
            ...(content.mentions ? { mentions: content.mentions } : {}),
          }
        : { ...by, kind: 'revoke' };
  try {
    await deps.sink.changed(message.sessionId, {
      targetId: content.target.id,
      change,
      senderId: message.from,
      fromMe: true,
    });
  } catch (error) {
    // The network has it either way; the stored target catches up with the network's own echo or stays behind.
    deps.logger.error({ err: error, sessionId: message.sessionId }, 'applying a sent change failed');
  }
}
