/** Fixtures of the webhook delivery unit tests: one inbound message event and a delivery target around it. */
import type { GatewayEvent } from '#shared/domain/events.js';
import type { DeliveryTarget } from '#shared/webhooks/delivery-attempts.js';

export const FIXTURE_SESSION = 'b6a1c0de-0000-4000-8000-000000000001';

/** `message.received` of network message 3EB0AAAA ("hello") in FIXTURE_SESSION. */
export const messageReceived: Extract<GatewayEvent, { event: 'message.received' }> = {
  event: 'message.received',
  sessionId: FIXTURE_SESSION,
  occurredAt: '2026-11-26T01:00:00.000Z',
  data: {
    id: '3EB0AAAA',
    messageId: 'b6a1c0de-0000-4000-8000-0000000000aa',
    chatId: '15550002222@c.us',
    from: '15550002222@c.us',
    to: '15550001111@c.us',
    author: null,
    body: 'hello',
    type: 'text',
    timestamp: 1_764_118_800,
    fromMe: false,
    isGroup: false,
    sender: { phone: '15550002222@c.us', lid: null },
  },
};

/** An active webhook `wh1` of FIXTURE_SESSION subscribed to message.received, 3 attempts, no secret. */
export function aDeliveryTarget(overrides: Partial<DeliveryTarget> = {}): DeliveryTarget {
  return {
    id: 'wh1',
    sessionId: FIXTURE_SESSION,
    url: 'https://hooks.example/in',
    events: ['message.received'],
    secret: null,
    headers: {},
    active: true,
    retryCount: 3,
    filters: null,
    ...overrides,
  };
}
