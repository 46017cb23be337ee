/**
 * The webhook delivery Lambda (aws mode): triggered by the SQS webhook queue with ReportBatchItemFailures. Each
 * record is one job (shared/webhooks/webhook-job.ts) and makes at most one attempt per webhook; failed attempts go
 * back on the queue as delayed retry jobs, so the function never sleeps. The records of a batch run side by side,
 * so a batch takes about one WEBHOOK_TIMEOUT. A record is reported as failed (SQS redelivers it after the
 * visibility timeout, and the dead-letter queue takes it after maxReceiveCount) only when a store or the queue was
 * unavailable. A record whose body does not parse is logged and not reported: the same bytes come back on every
 * receive, so a retry could only fail again, holding the record for maxReceiveCount visibility timeouts first.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { handleWebhookMessage } from '#shared/webhooks/webhook-message.js';
import { createAwsWebhookDeliveryDeps, type WebhookDeliveryDeps } from './delivery-deps.js';

/** The handler over the given dependencies (built on the first invocation, then reused while the instance lives). */
export function createWebhookDeliveryHandler(
  buildDeps: () => WebhookDeliveryDeps,
): (event: SQSEvent) => Promise<SQSBatchResponse> {
  let deps: WebhookDeliveryDeps | undefined;
  return async (event) => {
    deps ??= buildDeps();
    const { delivery, logger } = deps;
    const verdicts = await Promise.all(
      event.Records.map((record) =>
        handleWebhookMessage(record.body, delivery, logger, {
          messageId: record.messageId,
          receiveCount: Number(record.attributes.ApproximateReceiveCount),
        }),
      ),
    );
    try {
      await deps.flush();
    } catch (error) {
      // Only sampled webhook_triggered entries wait here; failure rows and their audit were written before.
      logger.error({ err: error }, 'audit flush after webhook deliveries failed');
    }
    return {
      batchItemFailures: event.Records.filter((_, index) => verdicts[index] === 'retry').map((record) => ({
        itemIdentifier: record.messageId,
      })),
    };
  };
}

export const handler = createWebhookDeliveryHandler(createAwsWebhookDeliveryDeps);
