import type { InboundMessage } from '#host/engines/engine-events.js';
import type { Message } from '#shared/domain/message.js';

/** A received message's stored metadata: its sender's push name and what its kind carries; null when neither. */
export function metadataOf(inbound: InboundMessage): Message['metadata'] {
  const metadata = { ...(inbound.pushName ? { pushName: inbound.pushName } : {}), ...inbound.metadata };
  return Object.keys(metadata).length > 0 ? metadata : null;
}
