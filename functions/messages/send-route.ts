/**
 * The shape every send route shares (spec "Messages"; DESIGN §2 Sends): an operator POSTs a body under
 * `/api/sessions/{sessionId}/messages/…`, the body becomes a send request, and the one send use case stores the row,
 * queues it and answers 201 with the row as it stands. Each route module says only its path and how its body
 * reads as a request. Every send takes an optional Idempotency-Key: a retry answers the first request's message.
 */
import type { z } from 'zod';
import { type AnyRoute, defineRoute } from '#functions/http/route.js';
import { MessageView } from '#shared/domain/message.js';
import { type SendRequest, sendOrReplay } from '#shared/use-cases/messages/send-message.js';
import { MessageSessionParams } from './params.js';
import { sentResponse } from './sent-response.js';

export interface SendRouteSpec<B extends z.ZodType> {
  /** The last path segment: `send-text`, `reply`, `react`… */
  action: string;
  summary: string;
  body: B;
  /** The request the body asks for. */
  request(body: z.output<B>): Omit<SendRequest, 'idempotencyKey'>;
  /** False for the kinds send pacing lets through (isPacedContent: reactions and revokes). */
  paced?: false;
  /** The body's fields that name a chat (a key limited to chats must have each); default `chatId`. */
  chatFields?: readonly string[];
}

export function defineSendRoute<B extends z.ZodType>(spec: SendRouteSpec<B>): AnyRoute {
  return defineRoute({
    method: 'POST',
    path: `/api/sessions/{sessionId}/messages/${spec.action}`,
    summary: spec.summary,
    tag: 'Messages',
    auth: { role: 'operator' },
    chats: { addresses: spec.chatFields ?? ['chatId'] },
    params: MessageSessionParams,
    body: spec.body,
    response: MessageView,
    success: 201,
    errors: [404],
    idempotent: true,
    paced: spec.paced ?? true,
    run: ({ deps, caller, params, idempotencyKey, body }) =>
      sendOrReplay(
        deps,
        caller,
        params.sessionId,
        { ...spec.request(body as z.output<B>), idempotencyKey },
        deps.env.SEND_WAIT_MS,
      ).then(sentResponse),
  });
}
