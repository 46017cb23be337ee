/**
 * The event map: every emitted event's data has a schema, and an event read back is checked against its own. A
 * stored message's event form carries the fields its kind's metadata gives.
 */

import { describe, expect, it } from '@jest/globals';
import {
  EMITTED_EVENT_NAMES,
  EVENT_NAMES,
  MessageEventData,
  messageEventData,
  parseGatewayEvent,
} from '#shared/domain/events.js';
import { personLookup } from '#shared/domain/person-ids.js';
import { aMessage } from '#tests/helpers/builders.js';

/** No pairings known: each person is named by the id the message shows. */
const NO_PAIRINGS = personLookup(new Map());

const occurredAt = '2026-11-26T01:00:00.000Z';

describe('gateway events', () => {
  it('emits only names the spec lists', () => {
    for (const name of EMITTED_EVENT_NAMES) expect(EVENT_NAMES).toContain(name);
  });

  it('parses an event read back with the schema of its own name', () => {
    const event = {
      event: 'message.ack',
      sessionId: 's1',
      occurredAt,
      data: {
        id: 'm1',
        messageId: '3EB0X',
        chatId: '15550001111@c.us',
        status: 'read',
        ack: 3,
        recipient: { phone: '15550001111@c.us', lid: '880001@lid' },
      },
    };
    expect(parseGatewayEvent(event)).toEqual(event);
  });

  it('reads an event written before its person fields existed with null in them (an outbox across an upgrade)', () => {
    const before = { id: 'm1', messageId: '3EB0X', chatId: '15550001111@c.us', status: 'read', ack: 3 };
    const event = { event: 'message.ack', sessionId: 's1', occurredAt, data: before };
    expect(parseGatewayEvent(event).data).toEqual({ ...before, recipient: null });
  });

  it('refuses data of another shape, an unknown name and a bad time', () => {
    const base = { sessionId: 's1', occurredAt };
    expect(() => parseGatewayEvent({ ...base, event: 'message.ack', data: { id: 'm1' } })).toThrow();
    expect(() => parseGatewayEvent({ ...base, event: 'message.reboot', data: {} })).toThrow();
    expect(() =>
      parseGatewayEvent({
        event: 'session.status',
        sessionId: 's1',
        occurredAt: 'yesterday',
        data: { sessionId: 's1', status: 'ready' },
      }),
    ).toThrow();
  });
});

describe('message event data', () => {
  const location = { latitude: 52.52, longitude: 13.405, description: 'Alexanderplatz', address: 'Berlin' };
  const vCard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Dana\nEND:VCARD';

  it('carries a location, contact cards and a quoted message from the stored metadata', () => {
    const metadata = {
      pushName: 'Ann',
      location,
      vCards: [vCard],
      quotedMessage: { id: '3EB0Q', body: null, participant: '15550001111@c.us' },
    };
    const data = messageEventData(aMessage({ type: 'location', body: null, metadata }), NO_PAIRINGS);
    expect(data).toMatchObject({
      body: '',
      location,
      vCards: [vCard],
      quotedMessage: { id: '3EB0Q', body: '' },
    });
    expect(data.quotedMessage).not.toHaveProperty('participant');
    expect(MessageEventData.parse(data)).toEqual(data);
  });

  it('leaves the fields out for a plain message, and drops only the field a malformed row holds', () => {
    const plain = messageEventData(aMessage({ metadata: { pushName: 'Ann' } }), NO_PAIRINGS);
    expect(plain).not.toHaveProperty('location');
    expect(plain).not.toHaveProperty('vCards');
    expect(plain).not.toHaveProperty('quotedMessage');
    const odd = messageEventData(
      aMessage({ metadata: { location: { latitude: 'north' }, vCards: [vCard] } }),
      NO_PAIRINGS,
    );
    expect(odd).not.toHaveProperty('location');
    expect(odd.vCards).toEqual([vCard]);
  });
});

describe('both ids of a person in events', () => {
  const PHONE = '15550002222@c.us';
  const LID = '880001@lid';
  const pairings = personLookup(new Map([[PHONE, [LID]]]));

  it('names the sender by phone number and LID, whichever the message shows', () => {
    expect(messageEventData(aMessage({ from: PHONE }), pairings).sender).toEqual({ phone: PHONE, lid: LID });
    expect(messageEventData(aMessage({ from: LID }), pairings).sender).toEqual({ phone: PHONE, lid: LID });
    expect(messageEventData(aMessage({ from: LID }), NO_PAIRINGS).sender).toEqual({ phone: null, lid: LID });
  });

  it('names the author in a group, and no one for a group or broadcast id', () => {
    const inGroup = aMessage({
      chatId: '120363012345678901@g.us',
      from: '120363012345678901@g.us',
      author: LID,
    });
    expect(messageEventData(inGroup, pairings).sender).toEqual({ phone: PHONE, lid: LID });
    expect(pairings('120363012345678901@g.us')).toBeNull();
    expect(pairings('status@broadcast')).toBeNull();
    expect(pairings(null)).toBeNull();
  });

  it('answers a LID whose pairing was read from the phone side, and a phone’s other LIDs stay out', () => {
    const two = personLookup(new Map([[PHONE, [LID, '880002@lid']]]));
    expect(two('880002@lid')).toEqual({ phone: PHONE, lid: '880002@lid' });
    expect(two(PHONE)).toEqual({ phone: PHONE, lid: LID });
  });
});
