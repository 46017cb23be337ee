/**
 * The event a change of a stored message publishes, built from the row as the change left it. The event's instant
 * is the change's own network time, so a change the network delivers twice has the same idempotency key.
 */
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import {
  editedEventData,
  reactionEventData,
  revokedEventData,
} from '#shared/domain/message-change-events.js';
import type { MessageChange } from '#shared/domain/message-changes.js';
import type { PersonLookup } from '#shared/domain/person-ids.js';

/** A change and who made it, as the host reports it: from a contact (inbound) or from this account's own send. */
export interface ChangeReport {
  /** The network id of the message changed. */
  targetId: string;
  change: MessageChange;
  /** Who changed it, in neutral form. */
  senderId: string;
  /** This account made the change. */
  fromMe: boolean;
}

export function changeEvent(
  sessionId: string,
  message: Message,
  report: ChangeReport,
  people: PersonLookup,
): GatewayEvent {
  const { change } = report;
  const occurredAt = new Date(change.timestamp * 1000).toISOString();
  switch (change.kind) {
    case 'reaction':
      return {
        event: 'message.reaction',
        sessionId,
        occurredAt,
        data: reactionEventData(
          message,
          { ...change, senderId: report.senderId, fromMe: report.fromMe },
          people,
        ),
      };
    case 'edit':
      return {
        event: 'message.edited',
        sessionId,
        occurredAt,
        data: editedEventData(message, change.timestamp, people),
      };
    case 'revoke':
      return {
        event: 'message.revoked',
        sessionId,
        occurredAt,
        data: revokedEventData(message, change.timestamp, people),
      };
  }
}
