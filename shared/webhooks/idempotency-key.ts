/**
 * The idempotency key of an event (openwa-facts §4.5): stable across every retry and every restart, so receivers
 * deduplicate on it. It is derived from what the event is about (a message's id, a status and its instant, a hash of
 * the rest), never from when it was delivered; each webhook gets its own, salted with the webhook's id.
 */
import { createHash } from 'node:crypto';
import type { GatewayEvent } from '#shared/domain/events.js';

/** First 12 hex characters of SHA-256 over the value's JSON with its top-level keys sorted. */
function hashOf(value: Record<string, unknown>): string {
  const sorted = Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, value[key]]),
  );
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 12);
}

/** The event's key before the per-webhook salt. */
export function eventKey(event: GatewayEvent): string {
  const sid = event.sessionId;
  const occ = `_${event.occurredAt}`;
  switch (event.event) {
    case 'message.received':
    case 'message.sent':
      return `msg_${sid}_${event.data.id}`;
    case 'message.ack':
      return `ack_${sid}_${event.data.messageId}_${event.data.status}`;
    case 'message.failed':
      return `failed_${sid}_${event.data.messageId}_${event.data.status}`;
    case 'message.reaction':
      return `react_${sid}_${event.data.messageId}_${event.data.senderId}${occ}`;
    case 'message.edited':
      return `edit_${sid}_${event.data.messageId}${occ}`;
    case 'message.revoked':
      return `rev_${sid}_${event.data.id}`;
    case 'session.status':
      return `sess_${sid}_${event.data.status}${occ}`;
    case 'session.qr':
      return `qr_${sid}_${hashOf({ qr: event.data.qr })}`;
    case 'session.authenticated':
      return `auth_${sid}_${hashOf(event.data)}${occ}`;
    case 'session.disconnected':
      return `disc_${sid}_${hashOf({ reason: event.data.reason })}${occ}`;
    case 'session.reconnect_loop':
      return `loop_${sid}_${event.data.attempts}${occ}`;
    case 'session.restriction':
      return `restr_${sid}_${event.data.kind}_${event.data.active}${occ}`;
    case 'group.join':
      return `grp_${event.data.groupId}_${hashOf({ participants: event.data.participantIds })}_join${occ}`;
    case 'group.leave':
      return `grp_${event.data.groupId}_${hashOf({ participants: event.data.participantIds })}_leave${occ}`;
    case 'group.update':
      return `grp_${event.data.groupId}_update_${hashOf(event.data.changes)}${occ}`;
    case 'presence.update':
      return `evt_presence_update_${hashOf(event.data)}`;
    case 'status.received':
      // The spec's rule for the rest; a status's data is the same on every delivery of it.
      return `evt_status_received_${hashOf(event.data)}`;
    case 'call.received':
      return `call_${sid}_${event.data.callId}`;
    case 'call.accepted':
    case 'call.rejected':
    case 'call.missed':
      return `call_${sid}_${event.data.callId}_${event.data.outcome}`;
  }
}

/** The key one webhook's deliveries of the event carry. */
export function idempotencyKey(event: GatewayEvent, webhookId: string): string {
  return `${eventKey(event)}_${webhookId}`;
}
