/** The event map: every emitted event's data has a schema, and an event read back is checked against its own. */
import { describe, expect, it } from '@jest/globals';
import { EMITTED_EVENT_NAMES, EVENT_NAMES, parseGatewayEvent } from '#shared/domain/events.js';

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
      data: { id: 'm1', messageId: '3EB0X', chatId: '15550001111@c.us', status: 'read', ack: 3 },
    };
    expect(parseGatewayEvent(event)).toEqual(event);
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
