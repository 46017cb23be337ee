import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';

/** Options of startSqsTrigger (offline-sqs-trigger.mjs): a function behind serverless offline, or one in-process. */
export interface SqsTriggerOptions {
  sqsEndpoint: string;
  region?: string;
  queueUrl: string;
  lambdaUrl?: string;
  functionName?: string;
  handler?: (event: SQSEvent) => Promise<SQSBatchResponse>;
  batchSize?: number;
  pollers?: number;
  pollMs?: number;
}

export function startSqsTrigger(options: SqsTriggerOptions): Promise<{ stop(): Promise<void> }>;
