/**
 * The Queue port over Amazon SQS. The port was written with SQS semantics, so this adapter is mostly a
 * translation: arguments are checked against the port's limits before any request (a caller must get the same
 * ValidationError here as on the embedded queue, and a bad call should not cost a round trip), and driver errors
 * become the gateway's errors: input SQS refuses → ValidationError, anything that says SQS cannot be used right
 * now (network, throttling, 5xx, missing queue, credentials) → retryable UnavailableError.
 */
import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
  SQSServiceException,
} from '@aws-sdk/client-sqs';
import { checkOutgoing, checkReceiveOptions, checkVisibility } from '#shared/adapters/queue-support.js';
import { type AppError, UnavailableError, ValidationError } from '#shared/errors/app-error.js';
import type { OutgoingMessage, Queue, ReceivedMessage, ReceiveOptions } from '#shared/ports/queue.port.js';

/** Where one SQS queue is and what type it is. */
export interface SqsQueueOptions {
  client: SQSClient;
  queueUrl: string;
  /** Must match the queue: FIFO queues need a groupId on every send and refuse per-message delays. */
  fifo: boolean;
  /** Defaults to the last path segment of the URL (the SQS queue name). */
  name?: string;
}

// Client faults that are not about the caller's input: the queue or the credentials are wrong, or SQS is
// shedding load. The caller cannot fix them by changing the request, so they are reported as unavailability.
const UNAVAILABLE_CLIENT_ERRORS = new Set([
  'QueueDoesNotExist',
  'AWS.SimpleQueueService.NonExistentQueue',
  'RequestThrottled',
  'ThrottlingException',
  'KmsThrottled',
  'KmsDisabled',
  'KmsAccessDenied',
  'KmsNotFound',
  'KmsInvalidState',
  'KmsInvalidKeyUsage',
  'KmsOptInRequired',
  'AccessDenied',
  'AccessDeniedException',
  'InvalidSecurity',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'SignatureDoesNotMatch',
  'ExpiredToken',
]);

/** Receipt-handle errors: SQS does not know this handle (malformed, from another queue, or expired). */
const STALE_HANDLE_ERRORS = new Set(['ReceiptHandleIsInvalid', 'InvalidIdFormat', 'MessageNotInflight']);

function isStaleHandleError(error: unknown): boolean {
  if (!(error instanceof SQSServiceException)) return false;
  if (STALE_HANDLE_ERRORS.has(error.name)) return true;
  // A well-formed handle whose receive has expired or whose message is gone comes back as InvalidParameterValue
  // naming the ReceiptHandle parameter, not as ReceiptHandleIsInvalid.
  return error.name.startsWith('InvalidParameterValue') && /ReceiptHandle/.test(error.message);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Maps any error of the SQS client to the gateway's error hierarchy. */
export function translateSqsError(error: unknown, operation: string): AppError {
  if (
    error instanceof SQSServiceException &&
    error.$fault === 'client' &&
    !UNAVAILABLE_CLIENT_ERRORS.has(error.name)
  ) {
    return new ValidationError(`SQS refused ${operation}: ${error.message}`, {
      cause: error,
      details: { sqsError: error.name },
    });
  }
  // Server faults, the unavailable client faults above, and anything that is not a service answer at all
  // (connection refused, socket reset, timeout).
  const name = error instanceof Error ? error.name : 'UnknownError';
  const message = error instanceof Error ? error.message : String(error);
  return new UnavailableError('DEPENDENCY_UNAVAILABLE', `SQS ${operation} failed: ${message}`, {
    cause: error,
    details: { sqsError: name },
  });
}

/** The queue name SQS puts at the end of a queue URL. */
function nameFromUrl(queueUrl: string): string {
  const segments = new URL(queueUrl).pathname.split('/').filter((segment) => segment !== '');
  return segments.at(-1) ?? queueUrl;
}

/** A Queue backed by one SQS queue. */
export class SqsQueue implements Queue {
  readonly name: string;
  private readonly client: SQSClient;
  private readonly queueUrl: string;
  private readonly fifo: boolean;

  constructor(options: SqsQueueOptions) {
    this.client = options.client;
    this.queueUrl = options.queueUrl;
    this.fifo = options.fifo;
    this.name = options.name ?? nameFromUrl(options.queueUrl);
  }

  async send(message: OutgoingMessage): Promise<{ id: string }> {
    checkOutgoing(message, { name: this.name, fifo: this.fifo });
    const delaySeconds = message.delaySeconds;
    // SQS FIFO queues reject any per-message DelaySeconds other than 0 (the port warns producers of this).
    if (this.fifo && delaySeconds !== undefined && delaySeconds > 0) {
      throw new ValidationError('FIFO queues on SQS do not support a per-message delaySeconds');
    }
    try {
      const answer = await this.client.send(
        new SendMessageCommand({
          QueueUrl: this.queueUrl,
          MessageBody: message.body,
          // A groupId on a standard queue is only a hint for fair queues; the port ignores it there.
          ...(this.fifo
            ? {
                MessageGroupId: message.groupId,
                // Without ContentBasedDeduplication SQS requires an id; a unique one means "no deduplication".
                MessageDeduplicationId: message.dedupId ?? randomUUID(),
              }
            : { DelaySeconds: delaySeconds }),
        }),
      );
      if (answer.MessageId === undefined) {
        throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'SQS answered a send without a MessageId');
      }
      return { id: answer.MessageId };
    } catch (error) {
      if (error instanceof UnavailableError) throw error;
      throw translateSqsError(error, 'send');
    }
  }

  async receive(options: ReceiveOptions = {}): Promise<ReceivedMessage[]> {
    const { maxMessages, visibilityTimeoutSeconds, waitTimeSeconds } = checkReceiveOptions(options);
    if (options.signal?.aborted) return [];
    try {
      const answer = await this.client.send(
        new ReceiveMessageCommand({
          QueueUrl: this.queueUrl,
          MaxNumberOfMessages: maxMessages,
          WaitTimeSeconds: waitTimeSeconds,
          VisibilityTimeout: visibilityTimeoutSeconds,
          MessageSystemAttributeNames: ['ApproximateReceiveCount', 'MessageGroupId'],
          // Deprecated, but some emulators (local-aws-sqs) only return system attributes when asked this way.
          AttributeNames: ['All'],
        }),
        { abortSignal: options.signal },
      );
      return (answer.Messages ?? []).map((message) => this.toReceived(message));
    } catch (error) {
      // An aborted long poll ends empty, as the port promises. A message SQS handed out in the instant before
      // the abort becomes visible again after its visibility timeout, with its receive counted.
      if (options.signal?.aborted || isAbort(error)) return [];
      throw translateSqsError(error, 'receive');
    }
  }

  async delete(receiptHandle: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: receiptHandle }),
      );
    } catch (error) {
      // The port makes a stale delete a no-op: the message was deleted already or is someone else's now.
      if (isStaleHandleError(error)) return;
      throw translateSqsError(error, 'delete');
    }
  }

  async changeVisibility(receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void> {
    checkVisibility(visibilityTimeoutSeconds);
    try {
      await this.client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: this.queueUrl,
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: visibilityTimeoutSeconds,
        }),
      );
    } catch (error) {
      if (isStaleHandleError(error)) {
        throw new ValidationError('The receipt handle is stale or unknown', { cause: error });
      }
      throw translateSqsError(error, 'changeVisibility');
    }
  }

  async depth(): Promise<number> {
    try {
      const answer = await this.client.send(
        new GetQueueAttributesCommand({
          QueueUrl: this.queueUrl,
          AttributeNames: [
            'ApproximateNumberOfMessages',
            'ApproximateNumberOfMessagesNotVisible',
            'ApproximateNumberOfMessagesDelayed',
          ],
        }),
      );
      const attributes = answer.Attributes ?? {};
      return (
        Number(attributes.ApproximateNumberOfMessages ?? 0) +
        Number(attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
        Number(attributes.ApproximateNumberOfMessagesDelayed ?? 0)
      );
    } catch (error) {
      throw translateSqsError(error, 'depth');
    }
  }

  private toReceived(message: Message): ReceivedMessage {
    const { MessageId, ReceiptHandle, Body } = message;
    if (MessageId === undefined || ReceiptHandle === undefined) {
      throw new UnavailableError(
        'DEPENDENCY_UNAVAILABLE',
        'SQS answered a message without id or receipt handle',
      );
    }
    const attributes = message.Attributes ?? {};
    const count = Number(attributes.ApproximateReceiveCount);
    return {
      id: MessageId,
      receiptHandle: ReceiptHandle,
      body: Body ?? '',
      groupId: attributes.MessageGroupId ?? null,
      // The count is always asked for; should SQS leave it out, this receive is at least the first.
      receiveCount: Number.isInteger(count) && count > 0 ? count : 1,
    };
  }
}
