/**
 * The emulators the api-aws and api-offline projects share in one jest run: one DynamoDB Local, one SQS emulator and
 * one S3 emulator (each test gateway makes its own tables, queues and bucket on them under a fresh prefix),
 * announced to the workers through WAYGATE_TEST_DYNAMODB_ENDPOINT / WAYGATE_TEST_SQS_ENDPOINT /
 * WAYGATE_TEST_S3_ENDPOINT. Every project's global setup and teardown runs in jest's main process, so the first
 * setup starts them and the last teardown stops them (counted on globalThis). Endpoints set before the run
 * (LocalStack: http://localhost:4566 for all three) are used as they are and nothing is started.
 */
import { startEmulators } from '#scripts/offline-emulators.mjs';

const KEY = Symbol.for('waygate.test.awsEmulators');

/** Starts the emulators unless a project of this run did; answers their endpoints. */
export async function acquireEmulators() {
  if (!globalThis[KEY]) {
    globalThis[KEY] = {
      users: 0,
      started: startEmulators({
        // A probe prefix: creating its tables, queues and bucket proves the emulators answer before any test starts.
        tablePrefix: 'api-aws-probe-',
        dynamodbEndpoint: process.env.WAYGATE_TEST_DYNAMODB_ENDPOINT,
        sqsEndpoint: process.env.WAYGATE_TEST_SQS_ENDPOINT,
        s3Endpoint: process.env.WAYGATE_TEST_S3_ENDPOINT,
      }),
    };
  }
  const shared = globalThis[KEY];
  shared.users += 1;
  const emulators = await shared.started;
  const { dynamodbEndpoint, sqsEndpoint, s3Endpoint } = emulators;
  process.env.WAYGATE_TEST_DYNAMODB_ENDPOINT = dynamodbEndpoint;
  process.env.WAYGATE_TEST_SQS_ENDPOINT = sqsEndpoint;
  process.env.WAYGATE_TEST_S3_ENDPOINT = s3Endpoint;
  return { dynamodbEndpoint, sqsEndpoint, s3Endpoint };
}

/** One project is done with them; the last one stops them. */
export async function releaseEmulators() {
  const shared = globalThis[KEY];
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  globalThis[KEY] = undefined;
  const emulators = await shared.started.catch(() => null);
  await emulators?.stop();
}
