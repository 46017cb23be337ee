/**
 * Carries out a `message.send` command: sends the stored outgoing row through the session's engine under its
 * pre-generated network id, then marks it sent (or failed) and publishes the outcome. A command for a row that is
 * no longer pending (a redelivery after success) does nothing, so a message is never sent twice by the gateway.
 */
import type { CommandOf } from '../../shared/domain/commands.js';
import type { MessageStore } from '../../shared/ports/message-store.port.js';
import type { SessionRunner } from '../sessions/session-runner.js';
import { type MessageSink, messageEventData } from './message-sink.js';

export interface SendDeps {
  messages: MessageStore;
  sink: MessageSink;
  runnerOf(sessionId: string): SessionRunner | undefined;
}

export async function sendMessage(deps: SendDeps, command: CommandOf<'message.send'>): Promise<void> {
  const { sessionId, messageId } = command;
  const message = await deps.messages.findById(sessionId, messageId);
  if (message?.status !== 'pending' || !message.waMessageId || message.body === null) return;
  const waMessageId = message.waMessageId;
  const fail = async (error: string) => {
    const change = await deps.messages.advanceStatus(sessionId, waMessageId, 'failed');
    if (change.outcome !== 'updated') return;
    await deps.sink.publish({
      event: 'message.failed',
      sessionId,
      occurredAt: new Date().toISOString(),
      data: { id: message.id, messageId: waMessageId, chatId: message.chatId, status: 'failed', error },
    });
  };
  const runner = deps.runnerOf(sessionId);
  if (!runner?.hasLiveEngine) {
    await fail('session is not connected');
    return;
  }
  const mentions = Array.isArray(message.metadata?.mentions)
    ? (message.metadata.mentions as string[])
    : undefined;
  let timestamp: number;
  try {
    ({ timestamp } = await runner.sendText({
      chatId: message.chatId,
      text: message.body,
      waMessageId,
      ...(mentions ? { mentions } : {}),
    }));
  } catch (error) {
    await fail(error instanceof Error ? error.message : 'send failed');
    return;
  }
  const change = await deps.messages.advanceStatus(sessionId, waMessageId, 'sent', timestamp);
  if (change.outcome !== 'updated') return;
  await deps.sink.publish({
    event: 'message.sent',
    sessionId,
    occurredAt: new Date().toISOString(),
    data: messageEventData(change.message),
  });
}
