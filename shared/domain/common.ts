/** Schemas shared by several resources: ids, timestamps, names, pagination. */
import { z } from 'zod';

export const Uuid = z.uuid();
export const IsoTimestamp = z.iso.datetime({ offset: true });

/**
 * `http://` or `https://` (in any case) and then a host: what the OpenAPI document can say of "an absolute http(s)
 * URL" beside `format: uri` (the URL parser also takes `http:host` or a leading space, which this refuses first).
 */
export const HTTP_URL_START = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/?#:@\s]/;

/**
 * Characters no resource name may hold: C0 and C1 controls, DEL, the line and paragraph separators and the bidi
 * embedding, override and isolate characters. Names end up in logs, audit rows and terminals, where these forge
 * lines, recolour output or reorder what a reader sees.
 */
const FORBIDDEN_IN_NAMES: readonly [number, number][] = [
  [0x00, 0x1f], // C0 controls (tab, line feed, carriage return, escape, …)
  [0x7f, 0x9f], // DEL and the C1 controls (next line, CSI, …)
  [0x2028, 0x2029], // line and paragraph separators
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2066, 0x2069], // bidi isolates
];
const hex = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
// Built from the list above, which reads better than a literal full of control-character escapes (which the
// linter rightly flags everywhere else); the OpenAPI document shows the resulting pattern.
const NAME_CHARACTERS = new RegExp(
  `^[^${FORBIDDEN_IN_NAMES.map(([from, to]) => `${hex(from)}-${hex(to)}`).join('')}]*$`,
  'u',
);

/**
 * The base of every resource's name (sessions, API keys; webhooks, templates and rules later): refuses the
 * characters above anywhere (checked before trimming, so a trailing line break is refused rather than dropped),
 * then trims surrounding whitespace. Chain the resource's own length bounds after it, so they apply to the
 * trimmed name.
 */
export const ResourceName = z
  .string()
  .regex(NAME_CHARACTERS, 'must not contain control, line-separator or bidi-override characters')
  .trim();

/**
 * A resource name of `min`–`max` characters once trimmed. Its lower bound is a pattern rather than `.min()`: JSON
 * Schema's minLength would count the surrounding white space the trim drops, so "  " would pass the OpenAPI document
 * and fail here; a pattern finds two non-space characters `min` apart (or one, for a bound of 1) wherever they stand,
 * which is the trimmed length, and reads the same on the name as sent.
 */
export function resourceName(min: number, max: number) {
  const lowerBound = min <= 1 ? /\S/u : new RegExp(`\\S[\\s\\S]{${min - 2},}\\S`, 'u');
  const message =
    min <= 1
      ? 'must hold a character besides white space'
      : `must be at least ${min} characters besides white space`;
  return ResourceName.max(max)
    .regex(lowerBound, message)
    .meta({ minLength: Math.max(min, 1) });
}

/**
 * Error maps for the closed shapes of an "exactly one of" union (a media send by `url` or by `data`): a field the
 * body lacks (`whenMissing`), or the other shape's field it holds besides (`whenAlso`), is told the rule rather
 * than zod's "expected string" or "unrecognized key". Other issues keep zod's own message.
 */
export const whenMissing = (message: string) => (issue: z.core.$ZodRawIssue) =>
  issue.input === undefined ? message : undefined;
export const whenAlso = (other: string, message: string) => (issue: z.core.$ZodRawIssue) =>
  issue.code === 'unrecognized_keys' && issue.keys.length === 1 && issue.keys[0] === other
    ? message
    : undefined;

/** `limit` 1–1000 (default 1000) and `offset` ≥ 0 on list routes; query strings are coerced. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
  offset: z.coerce.number().int().min(0).default(0),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page {
  limit: number;
  offset: number;
}
