import { WithHeaders } from '#functions/http/route.js';
import type { MessageView } from '#shared/domain/message.js';
import type { SentMessage } from '#shared/use-cases/messages/send-message.js';

/**
 * The answer of an idempotent send route: the message, with `Idempotent-Replayed: true` when an earlier request
 * with the same Idempotency-Key sent it.
 */
export function sentResponse({ message, replayed }: SentMessage): MessageView | WithHeaders {
  return replayed ? new WithHeaders(message, { 'idempotent-replayed': 'true' }) : message;
}
