/**
 * One delivery attempt as it goes on the wire: the body `{event, timestamp, sessionId, idempotencyKey, deliveryId,
 * data}` serialized once (those bytes are signed and sent), and its headers. A webhook's custom headers come first
 * and the system's win: a custom header may never pose as one of ours, as a signature, or as a hop-by-hop header.
 */
import type { GatewayEvent } from '#shared/domain/events.js';
import { signatureHeaders } from './delivery-signature.js';

/** Custom header names a webhook may not set (compared lower-cased). */
const RESERVED = new Set([
  'content-type',
  'user-agent',
  'host',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'connection',
  'content-length',
  'expect',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** True when a webhook may send a custom header of this name. */
export function isCustomHeaderAllowed(name: string): boolean {
  const lower = name.toLowerCase();
  return !RESERVED.has(lower) && !lower.startsWith('x-service-');
}

/** The identities of one event's delivery to one webhook, stable across its retries. */
export interface DeliveryIds {
  idempotencyKey: string;
  /** `dlv_<uuid>`: one per webhook per event, the same on every retry. */
  deliveryId: string;
}

/** The body of a delivery, serialized once: these exact bytes are signed and sent. */
export function deliveryBody(event: GatewayEvent, ids: DeliveryIds, timestamp: string): string {
  return JSON.stringify({
    event: event.event,
    timestamp,
    sessionId: event.sessionId,
    idempotencyKey: ids.idempotencyKey,
    deliveryId: ids.deliveryId,
    data: event.data,
  });
}

export interface HeaderInput {
  event: string;
  ids: DeliveryIds;
  /** 1 for the first attempt. */
  attempt: number;
  body: string;
  secret: string | null;
  custom: Readonly<Record<string, string>>;
  version: string;
  nowSeconds: number;
}

/** The headers of one attempt: custom ones first, then the system's, then the signatures when there is a secret. */
export function deliveryHeaders(input: HeaderInput): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.custom)) {
    if (isCustomHeaderAllowed(name)) headers[name] = value;
  }
  Object.assign(headers, {
    'Content-Type': 'application/json',
    'User-Agent': `Waygate-Webhook/${input.version}`,
    'X-Service-Event': input.event,
    'X-Service-Idempotency-Key': input.ids.idempotencyKey,
    'X-Service-Delivery-Id': input.ids.deliveryId,
    'X-Service-Retry-Count': String(input.attempt - 1),
  });
  if (input.secret) {
    Object.assign(
      headers,
      signatureHeaders({
        body: input.body,
        secret: input.secret,
        id: input.ids.idempotencyKey,
        timestampSeconds: input.nowSeconds,
      }),
    );
  }
  return headers;
}
