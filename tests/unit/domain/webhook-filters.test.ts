import { describe, expect, it } from '@jest/globals';
import type { GatewayEvent, MessageEventData } from '#shared/domain/events.js';
import {
  type FilterableEvent,
  type FilterCondition,
  matchesFilters,
  type WebhookFilters,
} from '#shared/domain/webhook-filters.js';

const ALICE = '4915111111111@c.us';
const BOB = '4915122222222@c.us';
const GROUP = '120363025246125486@g.us';

function message(overrides: Partial<MessageEventData> & Record<string, unknown> = {}): FilterableEvent {
  const data: MessageEventData = {
    id: 'WA1',
    messageId: 'b6a1c0de-0000-4000-8000-0000000000aa',
    chatId: ALICE,
    from: ALICE,
    to: BOB,
    author: null,
    body: 'Hello World',
    type: 'text',
    timestamp: 1_735_689_600,
    fromMe: false,
    isGroup: false,
    sender: { phone: ALICE, lid: null },
  };
  return { event: 'message.received', data: { ...data, ...overrides } };
}

const where = (...conditions: FilterCondition[]): WebhookFilters => ({ conditions });
const passes = (event: FilterableEvent, ...conditions: FilterCondition[]) =>
  matchesFilters(where(...conditions), event);

describe('matchesFilters', () => {
  it('lets everything through without filters or without conditions', () => {
    expect(matchesFilters(null, message())).toBe(true);
    expect(matchesFilters(where(), message())).toBe(true);
  });

  it('requires every condition to hold (AND)', () => {
    const fromAlice: FilterCondition = { field: 'sender', operator: 'is', value: ALICE };
    const saysHello: FilterCondition = { field: 'body', operator: 'contains', value: 'hello' };
    const saysBye: FilterCondition = { field: 'body', operator: 'contains', value: 'bye' };
    expect(passes(message(), fromAlice, saysHello)).toBe(true);
    expect(passes(message(), fromAlice, saysBye)).toBe(false);
  });

  describe('is / isNot on ids', () => {
    it('matches the sender against any of several values, and isNot against none of them', () => {
      expect(passes(message(), { field: 'sender', operator: 'is', value: [BOB, ALICE] })).toBe(true);
      expect(passes(message(), { field: 'sender', operator: 'is', value: BOB })).toBe(false);
      expect(passes(message(), { field: 'sender', operator: 'isNot', value: [BOB] })).toBe(true);
      expect(passes(message(), { field: 'sender', operator: 'isNot', value: [BOB, ALICE] })).toBe(false);
    });

    it('reads the sender of a group message from its author, not from the group', () => {
      const inGroup = message({ chatId: GROUP, from: GROUP, author: BOB, isGroup: true });
      expect(passes(inGroup, { field: 'sender', operator: 'is', value: BOB })).toBe(true);
      expect(passes(inGroup, { field: 'sender', operator: 'is', value: GROUP })).toBe(false);
      expect(passes(inGroup, { field: 'chatId', operator: 'is', value: GROUP })).toBe(true);
    });

    it('matches recipient against `to` and chatId against the chat', () => {
      expect(passes(message(), { field: 'recipient', operator: 'is', value: BOB })).toBe(true);
      expect(passes(message(), { field: 'recipient', operator: 'isNot', value: BOB })).toBe(false);
      expect(passes(message(), { field: 'chatId', operator: 'is', value: ALICE })).toBe(true);
      expect(passes(message(), { field: 'chatId', operator: 'isNot', value: ALICE })).toBe(false);
    });

    it('reads bare phone numbers, with or without +, as <number>@c.us on either side', () => {
      expect(passes(message(), { field: 'sender', operator: 'is', value: '4915111111111' })).toBe(true);
      expect(passes(message(), { field: 'sender', operator: 'is', value: '+4915111111111' })).toBe(true);
      expect(passes(message(), { field: 'sender', operator: 'isNot', value: '4915111111111' })).toBe(false);
      const barePayload = message({ from: '4915111111111' });
      expect(passes(barePayload, { field: 'sender', operator: 'is', value: ALICE })).toBe(true);
    });

    it('matches mentions when any mentioned id is listed, isNot when none is', () => {
      const mentioning = message({ mentionedIds: [BOB, '4915133333333@c.us'] });
      expect(passes(mentioning, { field: 'mentions', operator: 'is', value: '4915122222222' })).toBe(true);
      expect(passes(mentioning, { field: 'mentions', operator: 'is', value: [ALICE] })).toBe(false);
      expect(passes(mentioning, { field: 'mentions', operator: 'isNot', value: [ALICE] })).toBe(true);
      expect(passes(mentioning, { field: 'mentions', operator: 'isNot', value: BOB })).toBe(false);
    });
  });

  describe('contains / equals on the body', () => {
    it('finds any of the values inside the body, or equals the whole body', () => {
      expect(passes(message(), { field: 'body', operator: 'contains', value: ['bye', 'world'] })).toBe(true);
      expect(passes(message(), { field: 'body', operator: 'contains', value: 'bye' })).toBe(false);
      expect(passes(message(), { field: 'body', operator: 'equals', value: 'hello world' })).toBe(true);
      expect(passes(message(), { field: 'body', operator: 'equals', value: 'hello' })).toBe(false);
    });

    it('reads a missing body as empty text', () => {
      const media = message({ body: undefined });
      expect(passes(media, { field: 'body', operator: 'contains', value: 'x' })).toBe(false);
      expect(
        passes(message({ body: null } as never), { field: 'body', operator: 'equals', value: 'x' }),
      ).toBe(false);
    });
  });

  describe('case', () => {
    it('ignores case unless caseSensitive', () => {
      expect(passes(message(), { field: 'body', operator: 'equals', value: 'HELLO WORLD' })).toBe(true);
      const strict = { field: 'body', operator: 'equals', caseSensitive: true } as const;
      expect(passes(message(), { ...strict, value: 'HELLO WORLD' })).toBe(false);
      expect(passes(message(), { ...strict, value: 'Hello World' })).toBe(true);
      expect(passes(message(), { field: 'type', operator: 'is', value: 'TEXT' } as FilterCondition)).toBe(
        true,
      );
      expect(
        passes(message(), { field: 'body', operator: 'contains', value: 'WORLD', caseSensitive: true }),
      ).toBe(false);
    });
  });

  describe('choices and flags', () => {
    it('matches type and kind with is / isNot', () => {
      const image = message({ type: 'image', kind: 'individual' });
      expect(passes(image, { field: 'type', operator: 'is', value: ['image', 'video'] })).toBe(true);
      expect(passes(image, { field: 'type', operator: 'isNot', value: 'image' })).toBe(false);
      expect(passes(image, { field: 'kind', operator: 'is', value: 'individual' })).toBe(true);
      expect(passes(image, { field: 'kind', operator: 'isNot', value: 'group' })).toBe(true);
    });

    it('compares flags with is, reading an absent flag as false', () => {
      expect(passes(message({ isGroup: true }), { field: 'isGroup', operator: 'is', value: true })).toBe(
        true,
      );
      expect(passes(message(), { field: 'isGroup', operator: 'is', value: true })).toBe(false);
      expect(passes(message({ fromMe: true }), { field: 'fromMe', operator: 'is', value: false })).toBe(
        false,
      );
      const noFlags: FilterableEvent = { event: 'message.received', data: { body: 'x' } };
      expect(passes(noFlags, { field: 'fromMe', operator: 'is', value: false })).toBe(true);
      expect(passes(noFlags, { field: 'isGroup', operator: 'is', value: true })).toBe(false);
    });

    it('reads hasMedia from the presence of media', () => {
      const withMedia = message({ media: { mimetype: 'image/jpeg' } });
      expect(passes(withMedia, { field: 'hasMedia', operator: 'is', value: true })).toBe(true);
      expect(passes(message(), { field: 'hasMedia', operator: 'is', value: false })).toBe(true);
      expect(
        passes(message({ media: null } as Record<string, unknown>), {
          field: 'hasMedia',
          operator: 'is',
          value: true,
        }),
      ).toBe(false);
    });
  });

  describe('absent fields', () => {
    const ack: FilterableEvent = { event: 'message.ack', data: { id: 'x', chatId: ALICE, status: 'read' } };

    it('fails is and equals, and passes isNot, when the payload lacks the field', () => {
      expect(passes(ack, { field: 'sender', operator: 'is', value: ALICE })).toBe(false);
      expect(passes(ack, { field: 'sender', operator: 'isNot', value: ALICE })).toBe(true);
      expect(passes(ack, { field: 'kind', operator: 'is', value: 'group' })).toBe(false);
      expect(passes(ack, { field: 'mentions', operator: 'is', value: ALICE })).toBe(false);
      expect(passes(ack, { field: 'mentions', operator: 'isNot', value: ALICE })).toBe(true);
      expect(passes(ack, { field: 'chatId', operator: 'is', value: ALICE })).toBe(true);
    });

    it('treats a null id like an absent one', () => {
      const noAuthor = message({ author: null, from: undefined } as never);
      expect(passes(noAuthor, { field: 'sender', operator: 'is', value: ALICE })).toBe(false);
      expect(passes(noAuthor, { field: 'sender', operator: 'isNot', value: ALICE })).toBe(true);
    });
  });

  describe('event families', () => {
    it("skips conditions on fields the event's family does not have", () => {
      const status: FilterableEvent = { event: 'session.status', data: { sessionId: 's', status: 'ready' } };
      const conditions: FilterCondition[] = [
        { field: 'sender', operator: 'is', value: ALICE },
        { field: 'isGroup', operator: 'is', value: true },
      ];
      expect(matchesFilters(where(...conditions), status)).toBe(true);
      expect(matchesFilters(where(...conditions), { event: 'status.received', data: {} })).toBe(true);
      expect(matchesFilters(where(...conditions), message())).toBe(false);
    });
  });

  it('takes gateway events as they are published', () => {
    const published: GatewayEvent = {
      event: 'message.received',
      sessionId: 's1',
      occurredAt: '2025-01-01T00:00:00.000Z',
      data: message().data as MessageEventData,
    };
    expect(matchesFilters(where({ field: 'sender', operator: 'is', value: ALICE }), published)).toBe(true);
  });

  it('fails a stored condition whose value does not fit its field', () => {
    const wrongValue = { field: 'body', operator: 'contains', value: true } as FilterCondition;
    const wrongFlag = { field: 'isGroup', operator: 'is', value: 'true' } as FilterCondition;
    expect(passes(message(), wrongValue)).toBe(false);
    expect(passes(message(), wrongFlag)).toBe(false);
  });
});
