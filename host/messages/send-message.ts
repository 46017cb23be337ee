/**
 * Carries out `message.send` commands: sends each stored outgoing row through the session's engine under its
 * pre-generated network id, then marks it sent (or failed) and publishes the outcome. A command for a row that is
 * no longer pending (a redelivery after success) does nothing, so a message is never sent twice by the gateway.
 *
 * A session's queued sends come in runs (one receive holds up to ten of its FIFO group): the run's messages go to
 * the engine strictly one after the other, in order, and their outcomes are written together afterwards, in one
 * commit of the embedded store instead of one per message. Meanwhile the acks of each message are held back
 * (MessageSink.holdAcks), so a delivery receipt that arrives before its message's outcome is written is applied
 * after it: `message.sent` always comes before that message's `message.ack`. A crash before the outcomes are
 * written leaves the rows pending; the commands come back and send again under the same network ids, which the
 * network takes once.
 *
 * A run gives the event loop a turn (`nextTurn`) once it has held it for 10 ms: with the embedded stores a send
 * never waits for I/O, so a run of ten held the loop for its whole length (15 ms and more here, on top of the
 * HTTP requests and receipts of that turn), and every request arriving meanwhile waited for it. Measured by the
 * send benchmark at 0.6 of the engine's rate, alternating builds: p99 of send-text 87–107 ms against 110–247 ms
 * without the turns (4 runs each; event-loop delay p99 26–44 ms against 44–71). A turn between every two sends
 * cut the latency as far but cost the gateway about a third more CPU per message; 10 ms slices cost no more than
 * the machine's drift (1.52–1.91 against 1.55–1.82 times the engine's CPU per message).
 */

import type { SendRunResult } from '#host/commands/command-consumer.js';
import type { OutgoingMessage } from '#host/engines/ports/messaging.port.js';
import type { SessionRunner } from '#host/sessions/session-runner.js';
import type { CommandOf } from '#shared/domain/commands.js';
import { contentOfStored } from '#shared/domain/content-kinds.js';
import { messageEventData, messageFailedEvent } from '#shared/domain/events.js';
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
  /** How long a run may hold the event loop before it lets pending I/O in; 10 ms unless set (tests). */
  runSliceMs?: number;
  /** The monotonic time (ms) a run's slice is measured in; `performance.now` unless set (tests, to step it). */
  monotonicNow?: () => number;
}

/** What became of one command: nothing to do, or the network took the message, or it failed (`cause`: the engine's). */
type Outcome =
  | { kind: 'skip' }
  | { kind: 'sent'; message: Message; outgoing: OutgoingMessage; timestamp: number }
  | { kind: 'failed'; message: Message; error: string; cause?: unknown };

type Prepared =
  | { kind: 'ready'; message: Message; outgoing: OutgoingMessage }
  | Exclude<Outcome, { kind: 'sent' }>;

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

/** Carries out one send command; throws when it must be retried later (see sendMessages). */
export async function sendMessage(deps: SendDeps, command: CommandOf<'message.send'>): Promise<void> {
  const { error } = await sendMessages(deps, [command]);
  if (error !== undefined) throw error;
}

/** How long a run holds the event loop before it lets pending I/O in (see the module comment). */
const RUN_SLICE_MS = 10;

/** Resolves after the event loop's poll phase has run once (pending I/O callbacks are served first). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Carries out a run of one session's send commands, in order (see above). Stops at the first command that must be
 * retried later (its row is being sent by this host already, a store or the archive failed): the commands before it
 * are done with, it and the rest are not.
 */
export async function sendMessages(
  deps: SendDeps,
  commands: readonly CommandOf<'message.send'>[],
): Promise<SendRunResult> {
  const outcomes: Outcome[] = [];
  /** The messages this run hands to the engine, each with the release of its held acks. */
  const held: { message: Message; release: () => void }[] = [];
  let stopped: { error: unknown } | undefined;
  const now = deps.monotonicNow ?? (() => performance.now());
  let sliceStart = now();
  try {
    for (const command of commands) {
      // A second command for a message this run sends already (a recovery's duplicate) has nothing left to do.
      if (held.some(({ message }) => message.id === command.messageId)) {
        outcomes.push({ kind: 'skip' });
        continue;
      }
      let prepared: Prepared;
      try {
        prepared = await prepare(deps, command);
      } catch (error) {
        stopped = { error };
        break;
      }
      if (prepared.kind !== 'ready') {
        outcomes.push(prepared);
        continue;
      }
      const { message, outgoing } = prepared;
      if (held.length > 0 && now() - sliceStart >= (deps.runSliceMs ?? RUN_SLICE_MS)) {
        await nextTurn();
        sliceStart = now();
      }
      deps.inFlight.add(message.id);
      held.push({ message, release: deps.sink.holdAcks(message.sessionId, outgoing.waMessageId) });
      outcomes.push(await transmit(deps, message, outgoing));
    }
    // Every outcome's writes are issued in the same turn: one group commit (sqlite-group-commit.ts).
    const settled = await Promise.allSettled(outcomes.map((outcome) => settle(deps, outcome)));
    const failed = settled.findIndex((result) => result.status === 'rejected');
    if (failed >= 0) return { done: failed, error: (settled[failed] as PromiseRejectedResult).reason };
    return stopped ? { done: outcomes.length, ...stopped } : { done: outcomes.length };
  } finally {
    for (const { message, release } of held) {
      release();
      deps.inFlight.delete(message.id);
      deps.outcomes.notify(message.sessionId, message.id);
    }
  }
}

/** Reads and checks a command's row: what to send, or why not. Throws when the command must wait (in flight here). */
async function prepare(deps: SendDeps, command: CommandOf<'message.send'>): Promise<Prepared> {
  const message = await deps.messages.findById(command.sessionId, command.messageId);
  if (message?.status !== 'pending' || !message.waMessageId) return { kind: 'skip' };
  if (deps.inFlight.has(message.id)) {
    throw new UnavailableError(
      'HOST_UNAVAILABLE',
      'this message is being sent; the command is retried later',
    );
  }
  const content = contentOfStored(message);
  if (!content) {
    return {
      kind: 'failed',
      message,
      error: `a stored ${message.type} message holds nothing that can be sent`,
    };
  }
  let attachment: Uint8Array | undefined;
  if (isMediaContent(content)) {
    const file = await deps.media.get(content.file.path);
    if (!file) {
      return {
        kind: 'failed',
        message,
        error: `the ${content.type}'s file is no longer in the media archive`,
      };
    }
    attachment = file.bytes;
  }
  const outgoing: OutgoingMessage = {
    chatId: message.chatId,
    waMessageId: message.waMessageId,
    content,
    ...(attachment ? { attachment } : {}),
    ...(message.timestamp === null ? {} : { timestamp: message.timestamp }),
  };
  return { kind: 'ready', message, outgoing };
}

/** Hands the message to the session's engine; a session that is not connected (in time) or a refusal fails it. */
async function transmit(deps: SendDeps, message: Message, outgoing: OutgoingMessage): Promise<Outcome> {
  const { sessionId } = message;
  // A session that is started but still connecting (e.g. resuming after a restart) gets a moment to be ready.
  const runner = (await waitUntilConnected(deps.runnerOf, sessionId, deps.readyWaitMs))
    ? deps.runnerOf(sessionId)
    : undefined;
  if (!runner) return { kind: 'failed', message, error: 'session is not connected' };
  try {
    const { timestamp } = await runner.send(outgoing);
    return { kind: 'sent', message, outgoing, timestamp };
  } catch (error) {
    return {
      kind: 'failed',
      message,
      error: error instanceof Error ? error.message : 'send failed',
      cause: error,
    };
  }
}

/** Writes an outcome with its event, audits it, tells the waiting request, then publishes the event. */
async function settle(deps: SendDeps, outcome: Outcome): Promise<void> {
  if (outcome.kind === 'skip') return;
  const { message } = outcome;
  const { sessionId } = message;
  const waMessageId = message.waMessageId ?? '';
  if (outcome.kind === 'failed') {
    const people = await deps.sink.people(sessionId, [message.chatId]);
    const { entry } = await deps.sink.advanceWithEvent(sessionId, waMessageId, 'failed', undefined, (c) =>
      c.outcome !== 'updated' ? null : messageFailedEvent(message, outcome.error, new Date(), people),
    );
    if (entry) await deps.settled?.failed(message, outcome.error, outcome.cause);
    deps.outcomes.notify(sessionId, message.id);
    if (entry) await deps.sink.announce(entry);
    return;
  }
  const people = await deps.sink.people(sessionId, [message.author ?? message.from]);
  // `unchanged` with delivered/read: the network's ack overtook this write (another host's, or one from before a
  // restart). The message was still sent here, once, and its `message.sent` is still owed.
  const { change, entry } = await deps.sink.advanceWithEvent(
    sessionId,
    waMessageId,
    'sent',
    outcome.timestamp,
    (c) =>
      c.outcome === 'unchanged' && !isStatusAdvance('sent', c.message.status)
        ? null
        : {
            event: 'message.sent',
            sessionId,
            occurredAt: new Date().toISOString(),
            data: messageEventData(c.message, people),
          },
  );
  // The chat list shows the message as its chat's last (not awaited: the list is derived, the answer is not).
  if (entry && change.outcome !== 'not_found') void deps.sink.chats.messageStored(change.message);
  // A reaction, edit or revoke now shows on the message it points at; the answer waits for that, so the history a
  // client reads after the 201 already shows it.
  const { content } = outcome.outgoing;
  if (isChangeContent(content)) await applyOwnChange(deps, message, content, outcome.timestamp);
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
