/**
 * Send pacing where a send is accepted (openwa-facts §7.6; docs/send-pacing.md): with SEND_PACING_ENABLED, a
 * session may have accepted only so many sends per UTC day (the warm-up schedule, by its age in whole UTC days), and
 * only so many to chats without history (the cold schedule); while its breaker is open (send-breaker.ts) it may send
 * nothing paced. A refusal is 429 SEND_PACING_LIMITED with `retryAfterSeconds`, audited as `send_pacing_blocked`
 * (the recorder keeps one per session per minute). Reactions and revokes are not paced. Without the variable no
 * pacer exists and the send path does no pacing work at all.
 */
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { Caller } from '#shared/domain/caller.js';
import {
  allowanceFor,
  isPacedContent,
  type PacingRule,
  type SendPacingPolicy,
  secondsUntil,
  secondsUntilNextUtcDay,
  sessionAgeDays,
  utcDay,
} from '#shared/domain/send-pacing.js';
import type { Session } from '#shared/domain/session.js';
import { SendPacingLimitedError } from '#shared/errors/app-error.js';
import type { Metrics } from '#shared/observability/metrics.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import type { PacingAdmission, SendPacingStore } from '#shared/ports/send-pacing-store.port.js';

export interface SendPacerDeps {
  store: SendPacingStore;
  /** Whether a chat has history (a send to one without is cold). */
  messages: MessageStore;
  audit: AuditRecorder;
  clock: Clock;
  metrics: Pick<Metrics, 'sendPacingRefusals'>;
}

interface Refusal {
  rule: PacingRule;
  message: string;
  retryAfterSeconds: number;
  details: Record<string, unknown>;
}

/** Decides, per send, whether a session may send now, and counts what it lets through. */
export class SendPacer {
  constructor(
    private readonly deps: SendPacerDeps,
    private readonly policy: SendPacingPolicy,
  ) {}

  /**
   * Counts a send the session is about to accept, or refuses it (429 SEND_PACING_LIMITED). The send use case calls
   * it once the session is ready and the content resolved, right before the row is stored: a send counts once it is
   * accepted (an insert failing after this leaves the day's count one high, erring toward fewer sends).
   */
  async admit(caller: Caller, session: Session, chatId: string, content: { type: string }): Promise<void> {
    if (!isPacedContent(content)) return;
    const now = this.deps.clock.now();
    const ageDays = sessionAgeDays(session.createdAt, now);
    const { warmupSchedule, coldSchedule } = this.policy;
    const dailyCap = allowanceFor(warmupSchedule, ageDays);
    const coldCap = coldSchedule.length > 0 ? allowanceFor(coldSchedule, ageDays) : null;
    // Only probed when a cold cap applies: any stored message of the chat, either direction, makes it warm.
    const cold = coldCap !== null && !(await this.deps.messages.hasChat(session.id, chatId));
    const admission = await this.deps.store.admit(session.id, {
      day: utcDay(now),
      dailyCap,
      cold,
      coldCap,
      now: now.getTime(),
    });
    if (admission.admitted) return;
    const refusal = refusalOf(admission, { dailyCap, coldCap, ageDays, now });
    this.deps.metrics.sendPacingRefusals.inc({ rule: refusal.rule });
    void this.deps.audit.record(caller, {
      action: 'send_pacing_blocked',
      severity: 'warn',
      sessionId: session.id,
      sessionName: session.name,
      metadata: { rule: refusal.rule, retryAfterSeconds: refusal.retryAfterSeconds, chatId },
      errorMessage: refusal.message,
    });
    throw new SendPacingLimitedError(refusal.message, refusal.retryAfterSeconds, {
      rule: refusal.rule,
      ...refusal.details,
    });
  }
}

/** What the caller is told about a refused send, and when it may try again. */
function refusalOf(
  admission: Exclude<PacingAdmission, { admitted: true }>,
  facts: { dailyCap: number; coldCap: number | null; ageDays: number; now: Date },
): Refusal {
  const age = `a session ${facts.ageDays} day(s) old`;
  switch (admission.rule) {
    case 'breaker_open':
      return {
        rule: admission.rule,
        message: 'Sends are paused after a run of consecutive send failures',
        retryAfterSeconds: secondsUntil(admission.openUntil, facts.now),
        details: {},
      };
    case 'daily_cap':
      return {
        rule: admission.rule,
        message: `Daily send allowance of ${facts.dailyCap} reached for ${age}`,
        retryAfterSeconds: secondsUntilNextUtcDay(facts.now),
        details: { allowance: facts.dailyCap, sentToday: admission.count },
      };
    case 'cold_daily_cap':
      return {
        rule: admission.rule,
        message: `Daily allowance of ${facts.coldCap} new conversation(s) reached for ${age}`,
        retryAfterSeconds: secondsUntilNextUtcDay(facts.now),
        details: { allowance: facts.coldCap, coldToday: admission.count },
      };
  }
}
