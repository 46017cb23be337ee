/**
 * What the host records once a send settled, besides the row and its event: the spec's `message_sent` /
 * `message_failed` audit entries (written in the background, like the host's other high-volume entries), and, with
 * send pacing on, the outcome of a paced send for the breaker (shared/use-cases/messages/send-breaker.ts).
 */
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import type { Message } from '#shared/domain/message.js';
import { isPacedContent } from '#shared/domain/send-pacing.js';
import type { SendBreaker } from '#shared/use-cases/messages/send-breaker.js';

export interface SettledSendsDeps {
  audit: AuditRecorder;
  /** Present only with SEND_PACING_ENABLED. */
  breaker: SendBreaker | null;
}

const facts = (message: Message) => ({
  messageId: message.id,
  waMessageId: message.waMessageId,
  chatId: message.chatId,
  type: message.type,
});

/** Audits settled sends and reports paced ones to the breaker; never throws. */
export class SettledSends {
  constructor(private readonly deps: SettledSendsDeps) {}

  /** The network took the message (once per message: a redelivered command finds it no longer pending). */
  async sent(message: Message): Promise<void> {
    void this.deps.audit.record(
      SYSTEM_CALLER,
      {
        action: 'message_sent',
        sessionId: message.sessionId,
        metadata: facts(message),
      },
      { background: true },
    );
    if (this.deps.breaker && isPacedContent(message)) await this.deps.breaker.succeeded(message.sessionId);
  }

  /**
   * The row was marked failed, for `reason`. `error` is what the engine threw when it refused the send; without it
   * (the session was not connected, the row held nothing to send) the network was never asked, so the breaker does
   * not hear of it.
   */
  async failed(message: Message, reason: string, error?: unknown): Promise<void> {
    void this.deps.audit.record(
      SYSTEM_CALLER,
      {
        action: 'message_failed',
        severity: 'warn',
        sessionId: message.sessionId,
        metadata: facts(message),
        errorMessage: reason,
      },
      { background: true },
    );
    if (this.deps.breaker && error !== undefined && isPacedContent(message)) {
      await this.deps.breaker.failed(message.sessionId, error);
    }
  }
}
