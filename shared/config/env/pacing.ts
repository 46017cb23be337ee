/**
 * Env of send pacing and the send circuit breaker (openwa-facts §7.6, §9). Off unless SEND_PACING_ENABLED. A bad
 * value never stops boot: it means the default, as the spec's fallback rule says for limits; a schedule with any
 * bad entry falls back whole, because a ramp with a hole in it would pace differently from what the operator wrote.
 */
import { z } from 'zod';
import { flag } from './fields.js';

export const DEFAULT_WARMUP_SCHEDULE = [20, 40, 80, 160, 320, 640, 1000] as const;
export const DEFAULT_COLD_SCHEDULE = [5, 10, 20, 40, 60, 80, 100] as const;
const MIN_DAILY_CAP = 1;
const MAX_DAILY_CAP = 100_000;

/**
 * `20,40,80` → [20, 40, 80]. Unset, or an entry that is not a number from 1 to 100000 → `fallback`. A blank value
 * is the default too, unless `blankDisables` (the cold cap: an explicit empty value turns the rule off → []).
 */
const schedule = (fallback: readonly number[], blankDisables: boolean) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return [...fallback];
    if (value.trim() === '') return blankDisables ? [] : [...fallback];
    const entries = value.split(',').map((entry) => (entry.trim() === '' ? Number.NaN : Number(entry)));
    const valid = entries.every((n) => Number.isFinite(n) && n >= MIN_DAILY_CAP && n <= MAX_DAILY_CAP);
    return valid ? entries.map((n) => Math.floor(n)) : [...fallback];
  }, z.array(z.number().int().positive()));

/** A whole number of at least `min`; anything else (unset, blank, non-numeric, below `min`) → `fallback`. */
const atLeast = (min: number, fallback: number) =>
  z.preprocess((value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
    return Number.isFinite(n) && n >= min ? Math.floor(n) : fallback;
  }, z.number().int().min(min));

export const PacingEnv = z.object({
  /** Send pacing and the breaker; off by default, so an upgrade never starts refusing sends on its own. */
  SEND_PACING_ENABLED: flag(false),
  /** Sends a session may have accepted per UTC day, by its age in whole UTC days (last entry beyond the list). */
  SEND_PACING_WARMUP_SCHEDULE: schedule(DEFAULT_WARMUP_SCHEDULE, false),
  /** Sends to chats without history per UTC day, by age; an explicit empty value disables the rule. */
  SEND_PACING_COLD_DAILY_CAP: schedule(DEFAULT_COLD_SCHEDULE, true),
  /** Consecutive counted send failures that open the breaker. */
  SEND_PACING_BREAKER_THRESHOLD: atLeast(1, 5),
  /** How long an open breaker refuses sends, ms. */
  SEND_PACING_BREAKER_COOLDOWN_MS: atLeast(1000, 900_000),
});
