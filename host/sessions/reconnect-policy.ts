/**
 * Reconnect policy of the spec: attempts capped by `maxReconnectAttempts` (0–20, unlimited by default, 0 disables),
 * exponential backoff from `reconnectBaseDelay` (1000–300000 ms, default 5000) with jitter, capped at 5 minutes, and
 * a `session.reconnect_loop` signal on every 5th consecutive attempt; and, per session, the streak of lost
 * connections since it was last ready, with the `lastError` each leaves and whether it is audited.
 */

import type { SessionConfig } from '#shared/domain/session.js';
import { resolveSessionConfig } from '#shared/domain/session-config.js';

export const MAX_RECONNECT_DELAY_MS = 300_000;

export interface ReconnectConfig {
  /** null: unlimited. */
  maxAttempts: number | null;
  baseDelayMs: number;
}

/** Reads the session config defensively (resolveSessionConfig): out-of-range values clamped, others defaulted. */
export function resolveReconnectConfig(config: SessionConfig): ReconnectConfig {
  const resolved = resolveSessionConfig(config);
  return { maxAttempts: resolved.maxReconnectAttempts, baseDelayMs: resolved.reconnectBaseDelay };
}

export type ReconnectDecision =
  | { action: 'retry'; attempt: number; delayMs: number; reportLoop: boolean }
  | { action: 'give_up'; attempts: number };

/**
 * What to do after the `failures`-th consecutive lost connection. `random` (0 ≤ r < 1) spreads the delay over
 * ±20 % so that many sessions dropped together do not reconnect in lockstep.
 */
export function decideReconnect(
  failures: number,
  config: ReconnectConfig,
  random: () => number = Math.random,
): ReconnectDecision {
  if (config.maxAttempts !== null && failures > config.maxAttempts)
    return { action: 'give_up', attempts: failures - 1 };
  const exponential = config.baseDelayMs * 2 ** Math.min(failures - 1, 30);
  const jittered = exponential * (0.8 + 0.4 * random());
  return {
    action: 'retry',
    attempt: failures,
    delayMs: Math.round(Math.min(MAX_RECONNECT_DELAY_MS, jittered)),
    reportLoop: failures % 5 === 0,
  };
}

/** `4 s`, `1 min 4 s`, `5 min`. */
function formatDelay(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${seconds} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/**
 * The session's `lastError` after a failed connection: the engine's reason and what happens next, e.g.
 * "Cannot reach the WhatsApp server (…); reconnecting in 5 s (attempt 1)".
 */
function reconnectLastError(reason: string, decision: ReconnectDecision): string {
  return decision.action === 'give_up'
    ? `Reconnect attempts exhausted after ${decision.attempts} attempt(s): ${reason}`
    : `${reason}; reconnecting in ${formatDelay(decision.delayMs)} (attempt ${decision.attempt})`;
}

/**
 * Whether a lost connection is audited, given how many connection attempts in a row have failed so far (0 when a
 * working connection dropped). A drop that the next attempt repairs is only logged; a failed attempt is audited
 * when it starts a streak, then on every 5th consecutive failure (with `session.reconnect_loop`), and the failure
 * that ends the attempts always is. A server that stays unreachable is retried forever by default: one audit row
 * per retry would bury the log, and every failure is logged anyway.
 */
function auditsFailure(decision: ReconnectDecision, failedAttempts: number): boolean {
  if (decision.action === 'give_up') return true;
  return failedAttempts === 1 || (failedAttempts > 0 && decision.reportLoop);
}

/** What one lost connection leads to: the decision, the session's new `lastError`, and whether it is audited. */
export interface LostConnection {
  decision: ReconnectDecision;
  /** The consecutive lost connection this is (1 for the first since the session was last ready). */
  attempt: number;
  lastError: string;
  audited: boolean;
}

/** The lost connections of one session since it was last ready. */
export class ReconnectStreak {
  private failures = 0;
  private failedAttempts = 0;

  constructor(
    private readonly config: ReconnectConfig,
    private readonly random?: () => number,
  ) {}

  /** The session is ready: the next lost connection starts a new streak. */
  reset(): void {
    this.failures = 0;
    this.failedAttempts = 0;
  }

  /** Counts a lost connection: a working one that dropped (`wasUp`), or an attempt that never reached ready. */
  lost(reason: string, wasUp: boolean): LostConnection {
    this.failures += 1;
    if (!wasUp) this.failedAttempts += 1;
    const decision = decideReconnect(this.failures, this.config, this.random);
    return {
      decision,
      attempt: this.failures,
      lastError: reconnectLastError(reason, decision),
      audited: auditsFailure(decision, this.failedAttempts),
    };
  }
}
