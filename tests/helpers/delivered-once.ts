/**
 * What the crash tests assert at a webhook receiver: after deduplication on the idempotency key, every text a
 * contact sent produced exactly one `message.received` delivery, signed both ways and carrying the text.
 */
import { expect } from '@jest/globals';
import { waitFor } from './test-gateway.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/** A text a contact sent, by its network id. */
export interface DeliveredText {
  id: string;
  text: string;
}

/** Network ids of the receiver's `message.received` deliveries, each with the distinct keys it arrived under. */
export function keysByMessageId(receiver: WebhookReceiver): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const d of receiver.accepted) {
    if (d.event !== 'message.received') continue;
    const id = String(d.body.data.id);
    ids.set(id, (ids.get(id) ?? new Set()).add(d.idempotencyKey));
  }
  return ids;
}

/**
 * Waits (up to `timeoutMs`) until every text reached the receiver, then asserts one idempotency key per text, both
 * signatures on every delivery and the text as the body; logs the counts under `label`.
 */
export async function expectEachDeliveredOnce(
  receiver: WebhookReceiver,
  texts: readonly DeliveredText[],
  label: string,
  timeoutMs: number,
): Promise<void> {
  const ids = await waitFor(
    () => {
      const seen = keysByMessageId(receiver);
      return texts.every((t) => seen.has(t.id)) ? seen : null;
    },
    timeoutMs,
    100,
  );
  const wanted = new Set(texts.map((t) => t.id));
  const mine = receiver.accepted.filter((d) => wanted.has(String(d.body.data.id)));
  console.info(
    `${label}: ${texts.length} texts, ${mine.length} deliveries accepted ` +
      `(${mine.length - texts.length} replays under a key already seen), ${receiver.requests()} requests in all`,
  );
  expect(texts.filter((t) => ids.get(t.id)?.size !== 1).map((t) => t.id)).toEqual([]);
  expect(mine.filter((d) => !d.verified)).toEqual([]);
  const bodies = new Map(mine.map((d) => [String(d.body.data.id), d.body.data.body]));
  expect(texts.filter((t) => bodies.get(t.id) !== t.text)).toEqual([]);
}
