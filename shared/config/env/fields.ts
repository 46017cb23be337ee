/**
 * The parsers the env fragments build their variables from. Every one treats a blank value as unset, so
 * `FOO=` in a compose file means the default rather than an error.
 */
import { z } from 'zod';

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** Text with a default; when `pattern` is given a set value must match it. */
export const text = (fallback: string, pattern?: { regex: RegExp; message: string }) =>
  z.preprocess(
    blankToUndefined,
    (pattern ? z.string().regex(pattern.regex, pattern.message) : z.string()).default(fallback),
  );

/** `schema` when set, else undefined. */
export const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

export const optionalString = optional(z.string());

/** Optional text that must match `pattern` when set. */
export const optionalMatching = (pattern: RegExp, message: string) =>
  optional(z.string().regex(pattern, message));

export const optionalUrl = optionalMatching(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL');

/** One of `values`, `fallback` when unset. */
export const choice = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess(blankToUndefined, z.enum(values).default(fallback));

/** One of `values`, or undefined when unset (loadEnv then derives it from other variables). */
export const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T) =>
  optional(z.enum(values));

/** A pino log level. */
export const logLevel = (fallback: 'info' | 'silent') =>
  choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], fallback);

export const port = (fallback: number) =>
  z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(65535).default(fallback));

/** Spec "limit env fallback": anything but a positive number means the default. Never fails. */
export const limit = (fallback: number) =>
  z.preprocess((value) => {
    const n = typeof value === 'string' ? Number(value.trim()) : Number.NaN;
    return Number.isFinite(n) && n > 0 && value !== '' ? Math.floor(n) : fallback;
  }, z.number().int().positive());

/** Like `limit`, but 0 is a value of its own (a cap of 0 turns the feature off); negative or unparseable is the default. */
export const limitOrZero = (fallback: number) =>
  z.preprocess((value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
    return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
  }, z.number().int().nonnegative());

/** Retention in days: 0 or less disables (null); an unparseable value uses the default. */
export const retentionDays = (fallback: number) =>
  z.preprocess((value) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
    if (!Number.isFinite(n)) return fallback;
    return n <= 0 ? null : n;
  }, z.number().positive().nullable());

/** `a, b,c` → ['a', 'b', 'c']; unset → []. */
export const commaList = z.preprocess(blankToUndefined, z.string().optional()).transform((v) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [],
);

/** `true`/`1` or `false`/`0`; `fallback` when unset (undefined lets the caller decide from other variables). */
export const flag = (fallback: boolean | undefined) =>
  z.preprocess(
    blankToUndefined,
    z
      .enum(['true', 'false', '1', '0'])
      .optional()
      .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1')),
  );

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Sizes like `25mb`, `512kb` or a plain byte count, in bytes. */
export const byteSize = (fallback: string) =>
  text(fallback).transform((v, ctx) => {
    const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(v.trim());
    const unit = BYTE_UNITS[(match?.[2] ?? 'b').toLowerCase()];
    if (!match || unit === undefined || Number(match[1]) <= 0) {
      ctx.addIssue({ code: 'custom', message: 'expected a size such as 25mb, 512kb or a byte count' });
      return z.NEVER;
    }
    return Math.floor(Number(match[1]) * unit);
  });
