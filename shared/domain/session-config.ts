/**
 * The session `config` keys the gateway reads (spec "Session"), as GET /api/sessions/{id}/config answers them and
 * PATCH changes them: resolved with the spec's defaults and clamps, and merged key by key (`null` clears a key).
 */
import { z } from 'zod';
import { SessionConfig } from './session.js';

export const MAX_RECONNECT_ATTEMPTS = 20;
export const MIN_RECONNECT_BASE_DELAY_MS = 1_000;
export const MAX_RECONNECT_BASE_DELAY_MS = 300_000;
export const DEFAULT_RECONNECT_BASE_DELAY_MS = 5_000;

/** The read keys with the values a start uses: defaults filled in, out-of-range values clamped. */
export const ResolvedSessionConfig = z
  .object({
    autoRejectCalls: z
      .boolean()
      .describe('Incoming calls are rejected as soon as they ring (default false).'),
    maxReconnectAttempts: z
      .number()
      .int()
      .min(0)
      .max(MAX_RECONNECT_ATTEMPTS)
      .nullable()
      .describe('Reconnect attempt cap; null: unlimited (the default), 0: no reconnect.'),
    reconnectBaseDelay: z
      .number()
      .int()
      .min(MIN_RECONNECT_BASE_DELAY_MS)
      .max(MAX_RECONNECT_BASE_DELAY_MS)
      .describe('Base of the reconnect backoff in ms (default 5000).'),
  })
  .meta({ id: 'SessionConfig' });
export type ResolvedSessionConfig = z.infer<typeof ResolvedSessionConfig>;

const { maxReconnectAttempts, reconnectBaseDelay, autoRejectCalls } = SessionConfig.shape;

/** PATCH body: any of the read keys, each nullable (`null` removes the key, so its default applies again). */
export const UpdateSessionConfigBody = z.strictObject({
  maxReconnectAttempts,
  reconnectBaseDelay: reconnectBaseDelay.unwrap().nullable().optional(),
  autoRejectCalls: autoRejectCalls.unwrap().nullable().optional(),
});
export type UpdateSessionConfigBody = z.infer<typeof UpdateSessionConfigBody>;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Reads a stored config defensively, as every start does: a value out of range (a row imported or written by an
 * older version) is clamped, one of the wrong type gives the default.
 */
export function resolveSessionConfig(config: SessionConfig): ResolvedSessionConfig {
  const attempts = config.maxReconnectAttempts;
  const base = config.reconnectBaseDelay;
  return {
    autoRejectCalls: config.autoRejectCalls === true,
    maxReconnectAttempts: isNumber(attempts) ? clamp(attempts, 0, MAX_RECONNECT_ATTEMPTS) : null,
    reconnectBaseDelay: isNumber(base)
      ? clamp(base, MIN_RECONNECT_BASE_DELAY_MS, MAX_RECONNECT_BASE_DELAY_MS)
      : DEFAULT_RECONNECT_BASE_DELAY_MS,
  };
}

/** `current` with the patch's keys set, its `null` keys removed and every other key (read or not) kept. */
export function mergeSessionConfig(current: SessionConfig, patch: UpdateSessionConfigBody): SessionConfig {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return merged as SessionConfig;
}
