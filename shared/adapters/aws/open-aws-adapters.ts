/**
 * The aws mode's stores and queues (commands, webhooks), built from the validated env: one DynamoDB client for both stores and
 * one SQS client, pointed at emulators when DYNAMODB_ENDPOINT / SQS_ENDPOINT are set. Both composition roots (the
 * functions' deps module and the host) open them here, so a Lambda and a host can never disagree on names.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { openDynamoDbDataStore, openDynamoDbMainStore } from '#shared/adapters/dynamodb/dynamodb-stores.js';
import { SqsQueue } from '#shared/adapters/sqs/sqs-queue.js';
import type { Env } from '#shared/config/env.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { Queue } from '#shared/ports/queue.port.js';
import type { DataStore, MainStore } from '#shared/ports/stores.port.js';

export type AwsEnv = Pick<
  Env,
  | 'AWS_REGION'
  | 'DYNAMODB_ENDPOINT'
  | 'SQS_ENDPOINT'
  | 'TABLE_PREFIX'
  | 'COMMAND_QUEUE_URL'
  | 'WEBHOOK_QUEUE_URL'
  | 'SEARCH_SCAN_LIMIT'
>;

export interface AwsAdapters {
  main: MainStore;
  data: DataStore;
  /** The FIFO command queue (MessageGroupId = session id). */
  commandQueue: Queue;
  /** The standard webhook queue (relay → delivery Lambda, and its retries); null without WEBHOOK_QUEUE_URL. */
  webhookQueue: Queue | null;
  /** The DynamoDB client the stores share (the auth-state store reuses it). */
  dynamoDb: DynamoDBClient;
  close(): Promise<void>;
}

/** What the adapters report to their composition root. */
export interface AwsAdapterHooks {
  /** A statistics counter not written after its message was (logged by the root; the message stays uncounted). */
  onStatsCountFailure?: (error: unknown) => void;
}

export function openAwsAdapters(env: AwsEnv, hooks: AwsAdapterHooks = {}): AwsAdapters {
  if (!env.COMMAND_QUEUE_URL) throw new Error('COMMAND_QUEUE_URL is required in aws mode');
  const endpoint = (url: string | undefined) => (url ? { endpoint: url } : {});
  const dynamoDb = new DynamoDBClient({ region: env.AWS_REGION, ...endpoint(env.DYNAMODB_ENDPOINT) });
  const sqs = new SQSClient({ region: env.AWS_REGION, ...endpoint(env.SQS_ENDPOINT) });
  const stores = { client: dynamoDb, tablePrefix: env.TABLE_PREFIX };
  const main = openDynamoDbMainStore(stores);
  const data = openDynamoDbDataStore({
    ...stores,
    searchScanLimit: env.SEARCH_SCAN_LIMIT,
    ...hooks,
  });
  return {
    main,
    data,
    commandQueue: new SqsQueue({ client: sqs, queueUrl: env.COMMAND_QUEUE_URL, fifo: true }),
    webhookQueue: env.WEBHOOK_QUEUE_URL
      ? new SqsQueue({ client: sqs, queueUrl: env.WEBHOOK_QUEUE_URL, fifo: false })
      : null,
    dynamoDb,
    async close() {
      await Promise.all([main.close(), data.close()]);
      dynamoDb.destroy();
      sqs.destroy();
    },
  };
}

/** The hook that logs an unwritten statistics counter as a warning (the message was stored; it stays uncounted). */
export function statsCountFailureLogger(logger: Pick<Logger, 'warn'>): (error: unknown) => void {
  return (error) =>
    logger.warn({ err: error }, 'message statistics counter not written; the message stays uncounted');
}
