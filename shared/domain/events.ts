/**
 * Gateway events: the typed map from event name to payload. Webhooks, the event bus and metrics all key on these
 * literal names; nothing builds an event name from strings.
 */
import type { MessageStatus } from './message.js';
import type { SessionStatus } from './session.js';

export const EVENT_NAMES = [
  'message.received',
  'message.sent',
  'message.ack',
  'message.failed',
  'message.revoked',
  'message.reaction',
  'message.edited',
  'status.received',
  'session.status',
  'session.qr',
  'session.authenticated',
  'session.disconnected',
  'session.reconnect_loop',
  'session.restriction',
  'presence.update',
  'group.join',
  'group.leave',
  'group.update',
  'call.received',
  'call.accepted',
  'call.rejected',
  'call.missed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** A message as events carry it (`message.received`, `message.sent`): neutral chat ids, epoch-second time. */
export interface MessageEventData {
  id: string;
  chatId: string;
  from: string;
  to: string;
  author: string | null;
  body: string;
  type: string;
  timestamp: number;
  fromMe: boolean;
  isGroup: boolean;
}

/** A delivery-state change of an outgoing message (`message.ack`, `message.failed`). */
export interface MessageAckData {
  /** The stored message id. */
  id: string;
  /** The network message id. */
  messageId: string;
  chatId: string;
  status: MessageStatus;
}

/** Payloads of the events the gateway emits today; the rest join as their issues land. */
export interface GatewayEventMap {
  'message.received': MessageEventData;
  'message.sent': MessageEventData;
  'message.ack': MessageAckData;
  'message.failed': MessageAckData & { error: string };
  'session.status': { sessionId: string; status: SessionStatus };
  'session.qr': { sessionId: string; qr: string };
  'session.authenticated': { sessionId: string; phone: string; pushName: string | null };
  'session.disconnected': { sessionId: string; reason: string };
  'session.reconnect_loop': { sessionId: string; attempts: number; nextDelayMs: number };
  'session.restriction': {
    sessionId: string;
    active: boolean;
    kind: string;
    code: string | null;
    expiresAt: string | null;
  };
}
export type EmittedEventName = keyof GatewayEventMap;

export type GatewayEvent = {
  [K in EmittedEventName]: { event: K; sessionId: string; occurredAt: string; data: GatewayEventMap[K] };
}[EmittedEventName];
