/**
 * Env of the deployment mode (DESIGN §1): `embedded` runs everything in one process on SQLite; `aws` uses
 * DynamoDB, SQS and hosts that share sessions through leases, and needs the AWS resources named here.
 */
import { z } from 'zod';
import { choice, limit, optionalUrl, text } from './fields.js';

export const DeploymentEnv = z.object({
  DEPLOYMENT_MODE: choice(['embedded', 'aws'], 'embedded'),
  AWS_REGION: text('us-east-1'),
  /** Local emulators (DynamoDB Local, an SQS emulator, LocalStack); unset in AWS. */
  DYNAMODB_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  TABLE_PREFIX: text('waygate-', {
    regex: /^[A-Za-z0-9_.-]{0,200}$/,
    message: 'letters, digits, _ . - only',
  }),
  COMMAND_QUEUE_URL: optionalUrl,
  WEBHOOK_QUEUE_URL: optionalUrl,
  /** Items a message search reads at most on DynamoDB, which has no full-text index (dynamodb-message-search.ts). */
  SEARCH_SCAN_LIMIT: limit(5000),
});
