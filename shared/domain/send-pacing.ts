/**
 * Send pacing and the send circuit breaker (openwa-facts §7.6), as pure rules: which sends are paced, the daily
 * allowances by session age in whole UTC days, and how long a refusal lasts. The use case
 * (shared/use-cases/messages/send-pacing.ts) applies them with the counts a SendPacingStore keeps.
 */
import { AppError } from '#shared/errors/app-error.js';
import type { OutgoingContent } from './outgoing-content.js';

/** What SEND_PACING_* configure (shared/config/env/pacing.ts parses them). */
export interface SendPacingPolicy {
  /** Sends a session may have accepted per UTC day, by its age in days; the last entry applies beyond the list. */
  warmupSchedule: readonly number[];
  /** Sends to chats without history per UTC day, by age like warmupSchedule; empty: no cold cap. */
  coldSchedule: readonly number[];
  /** Consecutive counted send failures that open the breaker. */
  breakerThreshold: number;
  /** How long an open breaker refuses sends, ms. */
  breakerCooldownMs: number;
}

/** Why a send was refused (the `rule` of the audit entry and of the refusals metric). */
export type PacingRule = 'daily_cap' | 'cold_daily_cap' | 'breaker_open';

const DAY_MS = 86_400_000;

/** Reactions and revokes start nothing and reach nobody new (openwa: react is not paced); every other kind is. */
const UNPACED_TYPES: ReadonlySet<string> = new Set<OutgoingContent['type']>(['reaction', 'revoke']);

/**
 * True when sending this content (or a stored outgoing row of this type) is paced: checked, counted, and its
 * outcome feeds the breaker.
 */
export function isPacedContent(content: { type: string }): boolean {
  return !UNPACED_TYPES.has(content.type);
}

/** Midnight UTC of the day `at` falls on, epoch ms. */
function startOfUtcDay(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** The UTC day of `at` as `YYYY-MM-DD`: the key the day's counts are kept under. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Whole UTC days between the session's creation and `now` (0 on the day it was created). From `createdAt`, not from
 * its last connection: a session that reconnects must still leave the first rung of the ramp.
 */
export function sessionAgeDays(createdAt: string, now: Date): number {
  const days = Math.floor((startOfUtcDay(now.getTime()) - startOfUtcDay(Date.parse(createdAt))) / DAY_MS);
  return Math.max(0, days);
}

/** The allowance of a schedule for a session this many days old: the last entry applies past the end. */
export function allowanceFor(schedule: readonly number[], ageDays: number): number {
  const index = Math.min(Math.max(ageDays, 0), schedule.length - 1);
  return schedule[index] ?? 0;
}

/** Seconds until the next UTC midnight, at least 1: when a spent daily allowance is new again. */
export function secondsUntilNextUtcDay(now: Date): number {
  const next = startOfUtcDay(now.getTime()) + DAY_MS;
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** Seconds until an open breaker (open until `openUntil`, epoch ms) lets sends through, at least 1. */
export function secondsUntil(openUntil: number, now: Date): number {
  return Math.max(1, Math.ceil((openUntil - now.getTime()) / 1000));
}

/**
 * Whether a failed send says something about the account's standing with the network, which is all the breaker
 * measures. A refusal the caller or this gateway caused (4xx), an engine that cannot do it (501) or is not connected
 * (503) does not count, or bad requests could open the breaker of a healthy session; anything else (a raw engine
 * error, a timeout, another 5xx) does.
 */
export function countsTowardBreaker(error: unknown): boolean {
  if (!(error instanceof AppError)) return true;
  const { status } = error;
  return !((status >= 400 && status < 500) || status === 501 || status === 503);
}

/** The variables the policy comes from (shared/config/env/pacing.ts, already parsed). */
export interface SendPacingEnv {
  SEND_PACING_ENABLED: boolean | undefined;
  SEND_PACING_WARMUP_SCHEDULE: readonly number[];
  SEND_PACING_COLD_DAILY_CAP: readonly number[];
  SEND_PACING_BREAKER_THRESHOLD: number;
  SEND_PACING_BREAKER_COOLDOWN_MS: number;
}

/** The policy SEND_PACING_* configure, or null when pacing is off (then nothing is paced, counted or stored). */
export function sendPacingPolicy(env: SendPacingEnv): SendPacingPolicy | null {
  if (!env.SEND_PACING_ENABLED) return null;
  return {
    warmupSchedule: env.SEND_PACING_WARMUP_SCHEDULE,
    coldSchedule: env.SEND_PACING_COLD_DAILY_CAP,
    breakerThreshold: env.SEND_PACING_BREAKER_THRESHOLD,
    breakerCooldownMs: env.SEND_PACING_BREAKER_COOLDOWN_MS,
  };
}
