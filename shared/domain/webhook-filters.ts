/**
 * Webhook filters, which automation rules reuse as their conditions: the validated shape (openwa-facts §2
 * "Filters shape") and the pure evaluator that decides whether an event passes them ("Evaluation").
 */
import { z } from 'zod';
import { BARE_PHONE, chatIdOf } from './wa-ids.js';

export const FILTER_OPERATORS = ['is', 'isNot', 'contains', 'equals'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const FILTER_MESSAGE_TYPES = [
  'text',
  'image',
  'video',
  'audio',
  'voice',
  'document',
  'sticker',
  'location',
  'contact',
  'call',
  'revoked',
  'unknown',
] as const;
export const FILTER_CHAT_KINDS = [
  'individual',
  'group',
  'channel',
  'status',
  'broadcast',
  'unknown',
] as const;

/** How a field's payload value is read and compared. */
type FieldKind = 'id' | 'idList' | 'text' | 'choice' | 'flag';

interface FieldRule {
  kind: FieldKind;
  operators: readonly FilterOperator[];
  /** The allowed values of a `choice` field. */
  choices?: readonly string[];
}

const ID_OPERATORS = ['is', 'isNot'] as const;

/** Every filterable field; all belong to the `message` family (events named `message.*`). */
const MESSAGE_FIELDS = {
  sender: { kind: 'id', operators: ID_OPERATORS },
  recipient: { kind: 'id', operators: ID_OPERATORS },
  chatId: { kind: 'id', operators: ID_OPERATORS },
  body: { kind: 'text', operators: ['contains', 'equals'] },
  type: { kind: 'choice', operators: ID_OPERATORS, choices: FILTER_MESSAGE_TYPES },
  isGroup: { kind: 'flag', operators: ['is'] },
  fromMe: { kind: 'flag', operators: ['is'] },
  hasMedia: { kind: 'flag', operators: ['is'] },
  mentions: { kind: 'idList', operators: ID_OPERATORS },
  kind: { kind: 'choice', operators: ID_OPERATORS, choices: FILTER_CHAT_KINDS },
} as const satisfies Record<string, FieldRule>;

export type FilterField = keyof typeof MESSAGE_FIELDS;
export const FILTER_FIELDS = Object.keys(MESSAGE_FIELDS) as [FilterField, ...FilterField[]];

/** Fields per event family (the event name before its first dot); a family without an entry has none. */
const FAMILY_FIELDS: Readonly<Record<string, Readonly<Record<string, FieldRule>>>> = {
  message: MESSAGE_FIELDS,
};

export const MAX_FILTER_CONDITIONS = 20;
export const MAX_FILTER_VALUES = 100;
export const MAX_FILTER_TEXT = 1000;

/** `<user>@<server>` without whitespace: `…@c.us`, `…@g.us`, `…@lid` and whatever the network adds later. */
const WA_ID = /^[^\s@]+@[^\s@]+$/;

/** A value that must be a string (or a list of them) says so, whatever else it was. */
const textOnly = (issue: z.core.$ZodRawIssue) =>
  issue.code === 'invalid_type' ? 'must be a string or a list of strings' : undefined;
const FilterText = z.string({ error: textOnly }).min(1).max(MAX_FILTER_TEXT);
const ID_MESSAGE = 'must be chat ids (<id>@c.us, <id>@g.us, <id>@lid) or bare phone numbers';
const FilterId = FilterText.regex(new RegExp(`${BARE_PHONE.source}|${WA_ID.source}`), ID_MESSAGE);

/** One value or a list of 1–100 of them. */
const oneOrMany = <T extends z.ZodType>(value: T) =>
  z.union([value, z.array(value).min(1).max(MAX_FILTER_VALUES)]);

/** What a condition on a field of `rule` compares with. */
function valueSchema(rule: FieldRule): z.ZodType<string | string[] | boolean> {
  switch (rule.kind) {
    case 'flag':
      return z.boolean({ error: 'must be true or false' });
    case 'choice': {
      const choices = rule.choices ?? [];
      return oneOrMany(z.enum(choices, { error: `must be one of ${choices.join(', ')}` }));
    }
    case 'id':
    case 'idList':
      return oneOrMany(FilterId);
    case 'text':
      return oneOrMany(FilterText);
  }
}

/** The condition on one field: the operators it takes and the values it compares with. */
function conditionOn<F extends FilterField>(field: F) {
  const rule: FieldRule = MESSAGE_FIELDS[field];
  return z.strictObject({
    field: z.literal(field),
    operator: z.enum(rule.operators, {
      error: `field '${field}' takes the operator ${rule.operators.join(' or ')}`,
    }),
    value: valueSchema(rule),
    caseSensitive: z.boolean().optional(),
  });
}

/**
 * One condition, by its field (the OpenAPI document's `oneOf`, each field with its own operators and values). The
 * field decides which shape applies, so a wrong operator or value is reported on that field's terms.
 */
export const FilterCondition = z.discriminatedUnion(
  'field',
  FILTER_FIELDS.map(conditionOn) as unknown as readonly [
    ReturnType<typeof conditionOn>,
    ...ReturnType<typeof conditionOn>[],
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union' ? `field must be one of ${FILTER_FIELDS.join(', ')}` : undefined,
  },
);

export type FilterCondition = z.infer<typeof FilterCondition>;

/** `{ conditions }`: every condition must hold (AND). No conditions, like null, lets everything through. */
export const WebhookFilters = z
  .strictObject({ conditions: z.array(FilterCondition).max(MAX_FILTER_CONDITIONS) })
  .meta({ id: 'WebhookFilters' });
export type WebhookFilters = z.infer<typeof WebhookFilters>;

/**
 * Filters as request bodies carry them: null, or `{ conditions: [] }`, which clears them and is stored as null
 * (one representation of "no filter").
 */
export const WebhookFiltersInput = WebhookFilters.nullable().transform((filters) =>
  filters === null || filters.conditions.length === 0 ? null : filters,
);

/**
 * What the evaluator reads: the event name and its payload (`data` of the delivery body). `data` is any object, so
 * a GatewayEvent (whose payloads are interfaces) and a plain record both fit; fields are read by name.
 */
export interface FilterableEvent {
  event: string;
  data: object;
}

/**
 * True when `event` passes `filters`: null passes everything; otherwise every condition must hold. A condition on
 * a field the event's family does not have is skipped (a `*` webhook with message filters still gets session
 * events). A field absent from the payload fails is/contains/equals and passes isNot; an absent flag reads false.
 * Comparisons ignore case unless `caseSensitive`; bare phone numbers compare as `<number>@c.us`.
 */
export function matchesFilters(filters: WebhookFilters | null, event: FilterableEvent): boolean {
  if (filters === null) return true;
  const fields = FAMILY_FIELDS[event.event.split('.', 1)[0] ?? ''];
  return filters.conditions.every((condition) => {
    const rule = fields?.[condition.field];
    // Reading unknown keys of a payload is the point: `read` checks every value's type before using it.
    return rule === undefined || holds(rule, condition, read(condition.field, event.data as Payload));
  });
}

/** A field's value in the payload: a string, a list of strings, a flag, or undefined when absent. */
type FieldValue = string | readonly string[] | boolean | undefined;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

type Payload = Readonly<Record<string, unknown>>;

function read(field: FilterField, data: Payload): FieldValue {
  switch (field) {
    case 'sender':
      // In a group message `from` is the group and `author` the participant who wrote it.
      return text(data.author) ?? text(data.from);
    case 'recipient':
      return text(data.to);
    case 'body':
      // A message without text (media without a caption) has an empty body, not an absent one.
      return text(data.body) ?? '';
    case 'hasMedia':
      return data.media !== undefined && data.media !== null;
    case 'isGroup':
    case 'fromMe':
      return data[field] === true;
    case 'mentions': {
      const ids = data.mentionedIds;
      return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : undefined;
    }
    default:
      return text(data[field]);
  }
}

function holds(rule: FieldRule, condition: FilterCondition, actual: FieldValue): boolean {
  const { operator, value } = condition;
  if (rule.kind === 'flag') return typeof value === 'boolean' && actual === value;
  // A stored value that does not fit its field (written around validation) matches nothing.
  if (typeof value === 'boolean' || typeof actual === 'boolean') return false;
  if (actual === undefined) return operator === 'isNot';
  const fold = (item: string) => normalise(rule.kind, item, condition.caseSensitive === true);
  const wanted = (typeof value === 'string' ? [value] : value).map(fold);
  const present = (typeof actual === 'string' ? [actual] : actual).map(fold);
  switch (operator) {
    case 'is':
    case 'equals':
      return present.some((item) => wanted.includes(item));
    case 'isNot':
      return !present.some((item) => wanted.includes(item));
    case 'contains':
      return present.some((item) => wanted.some((part) => item.includes(part)));
  }
}

function normalise(kind: FieldKind, value: string, caseSensitive: boolean): string {
  // A bare phone number is compared as its chat id `<number>@c.us`.
  const canonical = kind === 'id' || kind === 'idList' ? chatIdOf(value) : value;
  return caseSensitive ? canonical : canonical.toLowerCase();
}
