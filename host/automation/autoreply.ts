/**
 * Autoreply rules at work (spec "Automation rule (autoreply)", issue #20 item 7): an incoming message is checked
 * against its session's rules in evaluation order, and the first enabled rule whose conditions match and whose
 * per (rule, chat) cooldown can be claimed answers with its fixed text. The reply goes through the ordinary send
 * path (the send use case: a pending row, then a `message.send` command), so it is stored, shows in history and
 * is published as `message.sent` like any other send.
 */

import type { AutomationRule } from '#shared/domain/automation-rule.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { GatewayEvent, MessageEventData } from '#shared/domain/events.js';
import { matchesFilters } from '#shared/domain/webhook-filters.js';
import { SendPacingLimitedError, SessionStateError } from '#shared/errors/app-error.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MessageOutcomes } from '#shared/ports/message-outcomes.port.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import type { CommandQueue } from '#shared/queue/command-queue.js';
import { sendMessage } from '#shared/use-cases/messages/send-message.js';
import type { SendPacer } from '#shared/use-cases/messages/send-pacing.js';
import { autoreplyMetadata, OwnAutoreplies } from './own-autoreplies.js';

export interface AutoreplyDeps {
  data: DataStore;
  commands: CommandQueue;
  /** The send use case waits on it; an autoreply does not wait (0 ms), the reply's own events report it. */
  outcomes: MessageOutcomes;
  clock: Clock;
  logger: Logger;
  /** Send pacing (SEND_PACING_ENABLED): a reply is paced like any send. */
  pacing?: SendPacer | null;
}

/** Takes one gateway event; resolves when it has been evaluated (and a reply queued). Never rejects. */
export type AutoreplyConsumer = (event: GatewayEvent) => Promise<void>;

type ReceivedEvent = Extract<GatewayEvent, { event: 'message.received' }>;

/**
 * True for the messages a rule may answer at all. Engines already drop the account's own messages, broadcasts and
 * newsletter posts; this checks again, so no engine can turn the gateway into one that answers itself.
 * Groups are never answered: the spec speaks of replies per chat to incoming messages and says nothing of groups,
 * and a fixed text repeated into a group (once per member's message with cooldown 0) is what nobody wants.
 */
export function isAnswerable(message: MessageEventData): boolean {
  if (message.fromMe || message.isGroup) return false;
  // Personal chats only: status@broadcast, broadcast lists, @g.us and @newsletter never get a reply.
  return message.chatId.endsWith('@c.us') || message.chatId.endsWith('@lid');
}

/**
 * The autoreply evaluator. Only `message.received` is answered (`session.authenticated` refreshes the loop guard's
 * view of which numbers are ours). At most one rule answers a message: the spec says rules are evaluated in order
 * and is silent on several answering, so the first that matches and is not cooling down for this chat wins; a
 * matching rule still cooling down for the chat passes the turn to the next. Failures are logged, never thrown: a
 * rejection would keep the outbox entry and replay the event to every consumer, webhooks included.
 *
 * @example
 * relay.addConsumer(createAutoreply({ data, commands, outcomes, clock, logger }));
 */
export function createAutoreply(deps: AutoreplyDeps): AutoreplyConsumer {
  const own = new OwnAutoreplies({
    sessions: deps.data.sessions,
    messages: deps.data.messages,
    clock: deps.clock,
  });
  return async (event) => {
    if (event.event === 'session.authenticated') own.forget();
    if (event.event !== 'message.received' || !isAnswerable(event.data)) return;
    try {
      await evaluate(deps, own, event);
    } catch (error) {
      deps.logger.error(
        { err: error, sessionId: event.sessionId, chatId: event.data.chatId },
        'autoreply evaluation failed',
      );
    }
  };
}

async function evaluate(deps: AutoreplyDeps, own: OwnAutoreplies, event: ReceivedEvent): Promise<void> {
  const { sessionId, data: message } = event;
  const rules = await deps.data.automationRules.listBySession(sessionId);
  const matching = rules.filter((rule) => rule.enabled && matchesFilters(rule.conditions, event));
  if (matching.length === 0) return;
  // Checked before any cooldown is claimed: a skipped message must not keep a rule quiet for the chat.
  if (await own.isAutoreply(message.from, message.id)) {
    deps.logger.debug({ sessionId, chatId: message.chatId }, 'autoreply: not answering another autoreply');
    return;
  }
  const now = deps.clock.now();
  for (const rule of matching) {
    if (await deps.data.automationRules.claimCooldown(rule.id, message.chatId, now, rule.cooldownSeconds)) {
      await reply(deps, sessionId, message.chatId, rule);
      return;
    }
  }
}

async function reply(
  deps: AutoreplyDeps,
  sessionId: string,
  chatId: string,
  rule: AutomationRule,
): Promise<void> {
  try {
    const sent = await sendMessage(
      deps,
      SYSTEM_CALLER,
      sessionId,
      { chatId, content: { type: 'text', text: rule.replyText }, metadata: autoreplyMetadata(rule.id) },
      0,
    );
    deps.logger.info({ sessionId, chatId, ruleId: rule.id, messageId: sent.id }, 'autoreply queued');
  } catch (error) {
    // The session left `ready` between the message and the reply (stopping, restricted), or send pacing refused
    // it: nothing is sent, and replaying the event would not change that.
    if (!(error instanceof SessionStateError || error instanceof SendPacingLimitedError)) throw error;
    deps.logger.warn({ sessionId, chatId, ruleId: rule.id, reason: error.message }, 'autoreply not sent');
  }
}
