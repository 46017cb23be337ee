/**
 * One message of the webhook queue, from body to verdict, the same for the host's embedded consumer and the
 * delivery Lambda: parse it, process the job, and say whether the message is done with or must come back.
 */
import type { Logger } from '#shared/ports/logger.port.js';
import type { QueuedWebhookDelivery } from './queued-delivery.js';
import { parseWebhookJob } from './webhook-job.js';

/**
 * `done`: processed (delete it). `malformed`: it does not parse, and never will — the body is the same on every
 * receive — so it is logged and deleted rather than cycled through every receive into the dead-letter queue.
 * `retry`: a store or the queue was unavailable; leave it for redelivery after its visibility timeout.
 */
export type WebhookMessageVerdict = 'done' | 'malformed' | 'retry';

/** Identifies the message in logs. */
export interface WebhookMessageInfo {
  messageId: string;
  receiveCount: number;
}

export async function handleWebhookMessage(
  body: string,
  delivery: Pick<QueuedWebhookDelivery, 'process'>,
  logger: Logger,
  info: WebhookMessageInfo,
): Promise<WebhookMessageVerdict> {
  const parsed = parseWebhookJob(body);
  if (!parsed.ok) {
    // The body itself stays out of the log: it may carry message content.
    logger.error({ ...info, error: parsed.error, bytes: body.length }, 'malformed webhook job dropped');
    return 'malformed';
  }
  try {
    await delivery.process(parsed.job);
    return 'done';
  } catch (error) {
    logger.error(
      { ...info, err: error, kind: parsed.job.kind },
      'webhook job failed; the queue redelivers it',
    );
    return 'retry';
  }
}
