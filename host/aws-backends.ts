/**
 * The aws mode's part of backends.ts: DynamoDB stores, SQS queues and the DynamoDB auth-state store. Its own module,
 * imported by backends.ts in aws mode only, so the embedded gateway never loads the AWS SDK.
 */
import { openAwsAdapters, statsCountFailureLogger } from '#shared/adapters/aws/open-aws-adapters.js';
import { DynamoDbAuthStateStore } from '#shared/adapters/dynamodb/dynamodb-auth-state-store.js';
import type { Env } from '#shared/config/env.js';
import type { Logger } from '#shared/ports/logger.port.js';

/** backends.ts's ModeBackends (not named here: this module is what backends.ts imports, never the reverse). */
export function openAwsBackends(env: Env, logger?: Logger) {
  const aws = openAwsAdapters(env, logger ? { onStatsCountFailure: statsCountFailureLogger(logger) } : {});
  return {
    ...aws,
    dynamoDbAuthState: () =>
      new DynamoDbAuthStateStore({ client: aws.dynamoDb, tablePrefix: env.TABLE_PREFIX }),
  };
}
