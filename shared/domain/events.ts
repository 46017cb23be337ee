/**
 * Gateway events: the typed map from event name to payload. Webhooks, the event bus and metrics all key on these
 * literal names; nothing builds an event name from strings.
 */
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

/** Payloads of the events the gateway emits today; the rest join as their issues land. */
export interface GatewayEventMap {
  'session.status': { sessionId: string; status: SessionStatus };
  'session.qr': { sessionId: string; qr: string };
  'session.authenticated': { sessionId: string; phone: string; pushName: string | null };
  'session.disconnected': { sessionId: string; reason: string };
  'session.reconnect_loop': { sessionId: string; attempts: number; nextDelayMs: number };
}
export type EmittedEventName = keyof GatewayEventMap;

export type GatewayEvent = {
  [K in EmittedEventName]: { event: K; sessionId: string; occurredAt: string; data: GatewayEventMap[K] };
}[EmittedEventName];
