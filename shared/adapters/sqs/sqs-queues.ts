/**
 * Creates the gateway's SQS queues where nothing else does (tests, a local emulator): a FIFO command queue and a
 * standard queue, each with a dead-letter queue of the same type wired through a RedrivePolicy. In AWS the
 * queues belong to the deployment's infrastructure code; this helper only mirrors their shape.
 */
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { translateSqsError } from './sqs-queue.js';

/** One queue and, when asked for, its dead-letter queue. */
export interface SqsQueuePairSpec {
  /** Base name; `.fifo` is appended for FIFO queues and `-dlq` marks the dead-letter queue. */
  name: string;
  fifo: boolean;
  visibilityTimeoutSeconds: number;
  /** Receives after which SQS moves a message to the dead-letter queue; none when left out. */
  maxReceiveCount?: number;
}

/** The URLs of a created pair. */
export interface SqsQueuePair {
  url: string;
  deadLetterUrl?: string;
}

/** What `createSqsQueues` sets up. */
export interface SqsQueuesSpec {
  /** Prefix of every queue name, e.g. the stage, so several deployments can share an account. */
  prefix: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
}

/** The URLs of the gateway's queues. */
export interface SqsQueueUrls {
  commandQueueUrl: string;
  commandDeadLetterQueueUrl: string;
  standardQueueUrl: string;
  standardDeadLetterQueueUrl: string;
}

function queueName(base: string, fifo: boolean): string {
  return fifo ? `${base}.fifo` : base;
}

async function createQueue(
  client: SQSClient,
  name: string,
  attributes: Record<string, string>,
): Promise<string> {
  try {
    const answer = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    if (answer.QueueUrl === undefined) throw new Error(`CreateQueue ${name} answered no QueueUrl`);
    return answer.QueueUrl;
  } catch (error) {
    throw translateSqsError(error, `CreateQueue ${name}`);
  }
}

async function queueArn(client: SQSClient, url: string): Promise<string> {
  try {
    const answer = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    const arn = answer.Attributes?.QueueArn;
    if (arn === undefined) throw new Error(`GetQueueAttributes ${url} answered no QueueArn`);
    return arn;
  } catch (error) {
    throw translateSqsError(error, 'GetQueueAttributes');
  }
}

/**
 * Creates a queue (and its dead-letter queue when `maxReceiveCount` is set). CreateQueue is idempotent for equal
 * attributes, so running this against existing queues of the same shape is harmless.
 */
export async function createSqsQueuePair(client: SQSClient, spec: SqsQueuePairSpec): Promise<SqsQueuePair> {
  // Explicit deduplication ids only: content-based deduplication would drop two equal commands.
  const type: Record<string, string> = spec.fifo
    ? { FifoQueue: 'true', ContentBasedDeduplication: 'false' }
    : {};
  const main = { ...type, VisibilityTimeout: String(spec.visibilityTimeoutSeconds) };
  if (spec.maxReceiveCount === undefined) {
    return { url: await createQueue(client, queueName(spec.name, spec.fifo), main) };
  }
  // SQS requires the dead-letter queue of a FIFO queue to be FIFO as well.
  const deadLetterUrl = await createQueue(client, queueName(`${spec.name}-dlq`, spec.fifo), main);
  const redrive = JSON.stringify({
    deadLetterTargetArn: await queueArn(client, deadLetterUrl),
    maxReceiveCount: spec.maxReceiveCount,
  });
  const url = await createQueue(client, queueName(spec.name, spec.fifo), { ...main, RedrivePolicy: redrive });
  return { url, deadLetterUrl };
}

/** Creates the FIFO command queue and the standard queue, each with its dead-letter queue, and answers the URLs. */
export async function createSqsQueues(client: SQSClient, spec: SqsQueuesSpec): Promise<SqsQueueUrls> {
  const shape = {
    visibilityTimeoutSeconds: spec.visibilityTimeoutSeconds,
    maxReceiveCount: spec.maxReceiveCount,
  };
  const command = await createSqsQueuePair(client, { ...shape, name: `${spec.prefix}-commands`, fifo: true });
  const standard = await createSqsQueuePair(client, { ...shape, name: `${spec.prefix}-events`, fifo: false });
  if (command.deadLetterUrl === undefined || standard.deadLetterUrl === undefined) {
    throw new Error('createSqsQueuePair answered no dead-letter queue although maxReceiveCount was set');
  }
  return {
    commandQueueUrl: command.url,
    commandDeadLetterQueueUrl: command.deadLetterUrl,
    standardQueueUrl: standard.url,
    standardDeadLetterQueueUrl: standard.deadLetterUrl,
  };
}
