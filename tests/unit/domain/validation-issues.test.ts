/**
 * How a refused union reads (shared/errors/validation-issues.ts): the issues of the shape the input came closest to,
 * with paths from the root, rather than one "Invalid input" for the whole union; the messages are those the rules
 * gave before they were unions.
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { SendImageBody } from '#shared/domain/send-requests.js';
import { WebhookFilters } from '#shared/domain/webhook-filters.js';
import { validationIssues } from '#shared/errors/validation-issues.js';

const CHAT = '15550001111@c.us';
const read = (schema: z.ZodType, value: unknown) =>
  (validationIssues(schema, value) ?? []).map((issue) => [issue.path.join('.'), issue.message]);

describe('validationIssues', () => {
  it('reports a media body by the source it came closest to', () => {
    expect(read(SendImageBody, { chatId: CHAT })).toEqual([['url', 'give exactly one of url and data']]);
    expect(read(SendImageBody, { chatId: CHAT, url: 'https://f.example/a.png', data: 'QUJD' })).toEqual([
      ['', 'give exactly one of url and data'],
    ]);
    expect(read(SendImageBody, { chatId: CHAT, data: 'QUJD' })).toEqual([
      ['mimetype', 'data needs its mimetype'],
    ]);
    expect(read(SendImageBody, { chatId: 'nobody', url: 'https://f.example/a.png' })).toEqual([
      ['chatId', expect.any(String)],
    ]);
    expect(read(SendImageBody, { chatId: CHAT, data: 'QUJD', mimetype: 'image/png', colour: 1 })).toEqual([
      ['', 'Unrecognized key: "colour"'],
    ]);
    expect(read(SendImageBody, { chatId: CHAT, url: 'https://f.example/a.png' })).toEqual([]);
  });

  it('reports a filter condition on its field’s terms, down to the list item that is wrong', () => {
    const condition = (fields: object) => ({ conditions: [fields] });
    expect(read(WebhookFilters, condition({ field: 'body', operator: 'is', value: 'x' }))).toEqual([
      ['conditions.0.operator', "field 'body' takes the operator contains or equals"],
    ]);
    expect(
      read(WebhookFilters, condition({ field: 'type', operator: 'is', value: ['image', 'gif'] })),
    ).toEqual([['conditions.0.value.1', expect.stringMatching(/^must be one of text, image/)]]);
    expect(read(WebhookFilters, condition({ field: 'body', operator: 'contains', value: true }))).toEqual([
      ['conditions.0.value', 'must be a string or a list of strings'],
    ]);
    expect(read(WebhookFilters, condition({ field: 'hasMedia', operator: 'is', value: 'true' }))).toEqual([
      ['conditions.0.value', 'must be true or false'],
    ]);
    expect(read(WebhookFilters, condition({ field: 'colour', operator: 'is', value: 'x' }))).toEqual([
      ['conditions.0.field', expect.stringMatching(/^field must be one of sender, recipient/)],
    ]);
  });

  it('goes to the first shape when two are as close, and keeps a union’s own message when it has no shapes', () => {
    const either = z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.string() })]);
    expect(read(either, {})).toEqual([['a', 'Invalid input: expected string, received undefined']]);
    expect(read(either, { b: 1 })).toEqual([['b', 'Invalid input: expected string, received number']]);
    const both = z.xor([z.object({ a: z.string() }), z.object({ b: z.string() })]);
    expect(read(both, { a: 'x', b: 'y' })).toEqual([['', 'Invalid input: more than one option matched']]);
  });
});
