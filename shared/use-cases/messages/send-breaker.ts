/**
 * The send circuit breaker's side of send pacing (openwa-facts §7.6): the host reports how each paced send ended.
 * A run of SEND_PACING_BREAKER_THRESHOLD failures in a row that say something about the account (countsTowardBreaker)
 * opens the session's breaker for SEND_PACING_BREAKER_COOLDOWN_MS, audited once as `send_breaker_tripped` (never
 * sampled); while it is open, send-pacing.ts refuses paced sends. A success ends the streak and closes it. The streak
 * lives in the SendPacingStore, so every host and function sees the same one.
 */
import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import { countsTowardBreaker, type SendPacingPolicy } from '#shared/domain/send-pacing.js';
import type { Clock } from '#shared/ports/clock.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { SendPacingStore } from '#shared/ports/send-pacing-store.port.js';

export interface SendBreakerDeps {
  store: SendPacingStore;
  audit: AuditRecorder;
  clock: Clock;
  logger: Logger;
}

/**
 * After a streak was reset here, further successes of the session skip the store for this long: a success per send
 * would otherwise cost a write per send. A failure forgets it at once, so a streak this host counted is always reset
 * by its next success; one counted by another host (after a lease moved) is reset within this time.
 */
const RESET_MEMO_MS = 60_000;
const MAX_MEMO_SESSIONS = 10_000;

/** Records the outcomes of paced sends; never throws (a store failure is logged, the send's outcome stands). */
export class SendBreaker {
  /** When this host last reset each session's streak (epoch ms), oldest first. */
  private readonly resetAt = new Map<string, number>();

  constructor(
    private readonly deps: SendBreakerDeps,
    private readonly policy: Pick<SendPacingPolicy, 'breakerThreshold' | 'breakerCooldownMs'>,
  ) {}

  /** A paced send went out: the streak ends and an open breaker closes. */
  async succeeded(sessionId: string): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const last = this.resetAt.get(sessionId);
    if (last !== undefined && now - last < RESET_MEMO_MS) return;
    try {
      await this.deps.store.recordSuccess(sessionId);
      this.resetAt.delete(sessionId);
      this.resetAt.set(sessionId, now);
      if (this.resetAt.size > MAX_MEMO_SESSIONS) this.resetAt.delete(this.resetAt.keys().next().value ?? '');
    } catch (error) {
      this.deps.logger.warn({ err: error, sessionId }, 'send breaker: recording a success failed');
    }
  }

  /** A paced send failed with `error`: counted toward the breaker when it says something about the account. */
  async failed(sessionId: string, error: unknown): Promise<void> {
    if (!countsTowardBreaker(error)) return;
    this.resetAt.delete(sessionId);
    const { breakerThreshold: threshold, breakerCooldownMs: cooldownMs } = this.policy;
    try {
      const outcome = await this.deps.store.recordFailure(sessionId, {
        threshold,
        cooldownMs,
        now: this.deps.clock.now().getTime(),
      });
      if (!outcome.tripped) return;
      const { consecutiveFailures } = outcome;
      this.deps.logger.warn(
        { sessionId, consecutiveFailures, cooldownMs },
        'send breaker tripped: paced sends are refused until the cooldown ends',
      );
      void this.deps.audit.record(SYSTEM_CALLER, {
        action: 'send_breaker_tripped',
        severity: 'warn',
        sessionId,
        metadata: { consecutiveFailures, cooldownMs },
        errorMessage: `Send breaker tripped after ${consecutiveFailures} consecutive send failures`,
      });
    } catch (storeError) {
      this.deps.logger.warn({ err: storeError, sessionId }, 'send breaker: recording a failure failed');
    }
  }
}
