/**
 * Reconnect policy of the spec as pure functions: attempts capped by `maxReconnectAttempts` (0–20, unlimited by
 * default, 0 disables), exponential backoff from `reconnectBaseDelay` (1000–300000 ms, default 5000) with jitter,
 * capped at 5 minutes, and a `session.reconnect_loop` signal on every 5th consecutive attempt.
 */
import type { SessionConfig } from '../../shared/domain/session.js';

export const MAX_RECONNECT_DELAY_MS = 300_000;
const DEFAULT_BASE_DELAY_MS = 5_000;

export interface ReconnectConfig {
  /** null: unlimited. */
  maxAttempts: number | null;
  baseDelayMs: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Reads the session config defensively: out-of-range values are clamped, non-numbers use the defaults. */
export function resolveReconnectConfig(config: SessionConfig): ReconnectConfig {
  const attempts = config.maxReconnectAttempts;
  const base = config.reconnectBaseDelay;
  return {
    maxAttempts:
      typeof attempts === 'number' && Number.isFinite(attempts) ? clamp(Math.floor(attempts), 0, 20) : null,
    baseDelayMs:
      typeof base === 'number' && Number.isFinite(base)
        ? clamp(Math.floor(base), 1_000, 300_000)
        : DEFAULT_BASE_DELAY_MS,
  };
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
