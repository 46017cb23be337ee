import { describe, expect, it } from '@jest/globals';
import { CreateAutomationRuleBody, UpdateAutomationRuleBody } from '#shared/domain/automation-rule.js';
import {
  CreateWebhookBody,
  subscribesTo,
  toWebhookResponse,
  UpdateWebhookBody,
  type Webhook,
} from '#shared/domain/webhook.js';
import { WebhookFilters } from '#shared/domain/webhook-filters.js';

const URL_OK = 'https://hooks.example.com/waygate';
const SECRET = 'a-secret-of-16ch';

const accepts = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;
const create = (fields: Record<string, unknown>) => accepts(CreateWebhookBody, { url: URL_OK, ...fields });
const update = (fields: Record<string, unknown>) => accepts(UpdateWebhookBody, fields);

describe('CreateWebhookBody', () => {
  it('fills the defaults: message.received, no secret, no headers, no filters, 3 retries', () => {
    expect(CreateWebhookBody.parse({ url: URL_OK })).toEqual({
      url: URL_OK,
      events: ['message.received'],
      secret: null,
      headers: {},
      filters: null,
      retryCount: 3,
    });
  });

  it('takes absolute http and https URLs of at most 2048 characters, without credentials', () => {
    expect(create({ url: 'http://10.0.0.1:8080/hook?a=1' })).toBe(true);
    expect(create({ url: `https://h.example/${'a'.repeat(2048 - 18)}` })).toBe(true);
    expect(create({ url: `https://h.example/${'a'.repeat(2048 - 17)}` })).toBe(false);
    expect(create({ url: 'ftp://h.example/x' })).toBe(false);
    expect(create({ url: '/relative' })).toBe(false);
    expect(create({ url: 'https://user:pass@h.example/x' })).toBe(false);
    expect(create({ url: 'https://user@h.example/x' })).toBe(false);
    expect(accepts(CreateWebhookBody, {})).toBe(false);
  });

  it('takes at least one event, each known or *, none repeated', () => {
    expect(create({ events: ['*'] })).toBe(true);
    expect(create({ events: ['message.ack', 'session.status', 'call.missed'] })).toBe(true);
    expect(create({ events: [] })).toBe(false);
    expect(create({ events: ['message.unknown'] })).toBe(false);
    expect(create({ events: ['message.ack', 'message.ack'] })).toBe(false);
  });

  it('takes secrets of 16 to 255 characters, counted in code points', () => {
    expect(create({ secret: SECRET })).toBe(true);
    expect(create({ secret: SECRET.slice(1) })).toBe(false);
    expect(create({ secret: 'x'.repeat(255) })).toBe(true);
    expect(create({ secret: 'x'.repeat(256) })).toBe(false);
    // 255 emoji are 510 UTF-16 units but 255 characters.
    expect(create({ secret: '🔑'.repeat(255) })).toBe(true);
    expect(create({ secret: '🔑'.repeat(8) })).toBe(false);
  });

  it('takes up to 50 headers with token names unique regardless of case', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-H${i}`, 'v']));
    expect(create({ headers: fifty })).toBe(true);
    expect(create({ headers: { ...fifty, 'X-Extra': 'v' } })).toBe(false);
    expect(create({ headers: { 'X-Token': 'a', 'x-token': 'b' } })).toBe(false);
    expect(create({ headers: { 'X Token': 'a' } })).toBe(false);
    expect(create({ headers: { X_Token: 'a' } })).toBe(false);
    expect(create({ headers: { 'X-Token': 1 } })).toBe(false);
  });

  it('takes header values of at most 1024 printable Latin-1 characters', () => {
    expect(create({ headers: { 'X-A': 'ä ß ÿ ~ !' } })).toBe(true);
    expect(create({ headers: { 'X-A': 'x'.repeat(1024) } })).toBe(true);
    expect(create({ headers: { 'X-A': 'x'.repeat(1025) } })).toBe(false);
    expect(create({ headers: { 'X-A': 'line\r\nX-Forged: 1' } })).toBe(false);
    expect(create({ headers: { 'X-A': 'tab\there' } })).toBe(false);
    expect(create({ headers: { 'X-A': 'del\u007f' } })).toBe(false);
    expect(create({ headers: { 'X-A': 'snowman ☃' } })).toBe(false);
  });

  it('takes retryCount 0 to 5 and refuses unknown fields', () => {
    expect(create({ retryCount: 0 })).toBe(true);
    expect(create({ retryCount: 5 })).toBe(true);
    expect(create({ retryCount: 6 })).toBe(false);
    expect(create({ retryCount: 1.5 })).toBe(false);
    expect(create({ active: false })).toBe(false);
    expect(create({ extra: 1 })).toBe(false);
  });

  it('stores filters without conditions as no filter', () => {
    expect(CreateWebhookBody.parse({ url: URL_OK, filters: { conditions: [] } }).filters).toBeNull();
  });
});

describe('UpdateWebhookBody', () => {
  it('refuses an explicit null for url, events, headers, active and retryCount', () => {
    for (const field of ['url', 'events', 'headers', 'active', 'retryCount']) {
      expect(update({ [field]: null })).toBe(false);
    }
  });

  it('clears the secret with null or an empty string, and the filters with null or no conditions', () => {
    expect(UpdateWebhookBody.parse({ secret: '' })).toEqual({ secret: null });
    expect(UpdateWebhookBody.parse({ secret: null })).toEqual({ secret: null });
    expect(UpdateWebhookBody.parse({ filters: { conditions: [] } })).toEqual({ filters: null });
    expect(UpdateWebhookBody.parse({ filters: null })).toEqual({ filters: null });
    expect(update({ secret: 'short' })).toBe(false);
  });

  it('leaves out what the body leaves out', () => {
    expect(UpdateWebhookBody.parse({ active: false })).toEqual({ active: false });
    expect(UpdateWebhookBody.parse({})).toEqual({});
  });
});

describe('WebhookFilters', () => {
  const filters = (...conditions: unknown[]) => accepts(WebhookFilters, { conditions });

  it('takes each field with its own operators', () => {
    expect(filters({ field: 'sender', operator: 'is', value: '4915111111111' })).toBe(true);
    expect(filters({ field: 'sender', operator: 'contains', value: 'x@c.us' })).toBe(false);
    expect(filters({ field: 'body', operator: 'contains', value: 'hi', caseSensitive: true })).toBe(true);
    expect(filters({ field: 'body', operator: 'is', value: 'hi' })).toBe(false);
    expect(filters({ field: 'isGroup', operator: 'is', value: true })).toBe(true);
    expect(filters({ field: 'isGroup', operator: 'isNot', value: true })).toBe(false);
    expect(filters({ field: 'unknown', operator: 'is', value: 'x' })).toBe(false);
  });

  it('checks values against the field: ids, choices, flags', () => {
    expect(filters({ field: 'chatId', operator: 'is', value: ['1203630@g.us', '42@lid', '+4915111'] })).toBe(
      true,
    );
    expect(filters({ field: 'chatId', operator: 'is', value: 'not an id' })).toBe(false);
    expect(filters({ field: 'type', operator: 'is', value: ['image', 'voice'] })).toBe(true);
    expect(filters({ field: 'type', operator: 'is', value: 'gif' })).toBe(false);
    expect(filters({ field: 'kind', operator: 'isNot', value: 'channel' })).toBe(true);
    expect(filters({ field: 'hasMedia', operator: 'is', value: 'true' })).toBe(false);
    expect(filters({ field: 'mentions', operator: 'is', value: true })).toBe(false);
  });

  it('limits conditions to 20, values to 100 per condition and text to 1000 characters', () => {
    const condition = { field: 'body', operator: 'contains', value: 'x' };
    expect(filters(...Array.from({ length: 20 }, () => condition))).toBe(true);
    expect(filters(...Array.from({ length: 21 }, () => condition))).toBe(false);
    expect(filters({ ...condition, value: Array.from({ length: 100 }, (_, i) => `v${i}`) })).toBe(true);
    expect(filters({ ...condition, value: Array.from({ length: 101 }, (_, i) => `v${i}`) })).toBe(false);
    expect(filters({ ...condition, value: 'x'.repeat(1000) })).toBe(true);
    expect(filters({ ...condition, value: 'x'.repeat(1001) })).toBe(false);
    expect(filters({ ...condition, value: [] })).toBe(false);
    expect(filters({ ...condition, extra: 1 })).toBe(false);
  });
});

describe('automation rule bodies', () => {
  it('fills enabled, cooldown and conditions, and bounds name, reply text and cooldown', () => {
    expect(CreateAutomationRuleBody.parse({ name: ' Greeting ', replyText: 'Hi!' })).toEqual({
      name: 'Greeting',
      replyText: 'Hi!',
      conditions: null,
      cooldownSeconds: 60,
      enabled: true,
    });
    const rule = (fields: Record<string, unknown>) =>
      accepts(CreateAutomationRuleBody, { name: 'r', replyText: 'x', ...fields });
    expect(rule({ name: 'n'.repeat(100) })).toBe(true);
    expect(rule({ name: 'n'.repeat(101) })).toBe(false);
    expect(rule({ name: '' })).toBe(false);
    expect(rule({ name: 'line\nbreak' })).toBe(false);
    expect(rule({ name: 'bidi\u202eoverride' })).toBe(false);
    expect(rule({ replyText: 'x'.repeat(4096) })).toBe(true);
    expect(rule({ replyText: 'x'.repeat(4097) })).toBe(false);
    expect(rule({ replyText: '' })).toBe(false);
    expect(rule({ cooldownSeconds: 0 })).toBe(true);
    expect(rule({ cooldownSeconds: 86_400 })).toBe(true);
    expect(rule({ cooldownSeconds: 86_401 })).toBe(false);
    expect(rule({ conditions: { conditions: [{ field: 'body', operator: 'is', value: 'x' }] } })).toBe(false);
  });

  it('refuses an explicit null on update except for conditions', () => {
    for (const field of ['name', 'replyText', 'cooldownSeconds', 'enabled']) {
      expect(accepts(UpdateAutomationRuleBody, { [field]: null })).toBe(false);
    }
    expect(UpdateAutomationRuleBody.parse({ conditions: null })).toEqual({ conditions: null });
  });
});

describe('webhook helpers', () => {
  const webhook: Webhook = {
    id: '10000000-0000-4000-8000-000000000000',
    sessionId: '20000000-0000-4000-8000-000000000000',
    url: URL_OK,
    events: ['message.received'],
    secret: SECRET,
    headers: { 'X-Token': 't' },
    filters: null,
    active: true,
    retryCount: 3,
    lastTriggeredAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };

  it('never puts the secret or the headers in the response', () => {
    const response = toWebhookResponse(webhook);
    expect(response).not.toHaveProperty('secret');
    expect(response).not.toHaveProperty('headers');
    expect(response).toMatchObject({ id: webhook.id, url: URL_OK, active: true, retryCount: 3 });
  });

  it('subscribes an active webhook to its events or to all with *', () => {
    expect(subscribesTo(webhook, 'message.received')).toBe(true);
    expect(subscribesTo(webhook, 'message.ack')).toBe(false);
    expect(subscribesTo({ ...webhook, events: ['*'] }, 'message.ack')).toBe(true);
    expect(subscribesTo({ ...webhook, active: false }, 'message.received')).toBe(false);
  });
});
