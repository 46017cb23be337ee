/**
 * Global setup of the jest project `api-aws`: the functions packaged once, and one DynamoDB Local, one SQS emulator and
 * one S3 emulator for the whole run (each test gateway makes its own tables, queues and media bucket on them under a
 * fresh prefix), announced to the workers through WAYGATE_TEST_DYNAMODB_ENDPOINT / WAYGATE_TEST_SQS_ENDPOINT /
 * WAYGATE_TEST_S3_ENDPOINT. Endpoints set beforehand (LocalStack: http://localhost:4566 for all three) are used as
 * they are and nothing is started.
 *
 * Then the prewarm pool (functions-pool.mjs), announced through WAYGATE_TEST_FUNCTIONS_POOL (its URL with a random
 * token): it keeps the next default deployment's stores made and its serverless offline up, so most test gateways
 * start only their host. It lives here because this process outlives every test file (a file's module registry
 * does not). WAYGATE_TEST_PREWARM=0 runs without it: every gateway then starts its own functions.
 */
import { startEmulators } from '#scripts/offline-emulators.mjs';
import { packageFunctions } from '#scripts/offline-stack.mjs';
import { startFunctionsPool } from './functions-pool.mjs';

export default async function globalSetup() {
  // The functions are bundled once for the run; every test gateway's serverless offline runs these zips.
  const [emulators, packaged] = await Promise.allSettled([
    startEmulators({
      // A probe prefix: creating its tables, queues and bucket proves the emulators answer before any test starts.
      tablePrefix: 'api-aws-probe-',
      dynamodbEndpoint: process.env.WAYGATE_TEST_DYNAMODB_ENDPOINT,
      sqsEndpoint: process.env.WAYGATE_TEST_SQS_ENDPOINT,
      s3Endpoint: process.env.WAYGATE_TEST_S3_ENDPOINT,
    }),
    packageFunctions(),
  ]);
  if (emulators.status === 'rejected') throw emulators.reason;
  if (packaged.status === 'rejected') {
    await emulators.value.stop();
    throw packaged.reason;
  }
  const { dynamodbEndpoint, sqsEndpoint, s3Endpoint } = emulators.value;
  process.env.WAYGATE_TEST_FUNCTIONS_PREBUILT = '1';
  process.env.WAYGATE_TEST_DYNAMODB_ENDPOINT = dynamodbEndpoint;
  process.env.WAYGATE_TEST_SQS_ENDPOINT = sqsEndpoint;
  process.env.WAYGATE_TEST_S3_ENDPOINT = s3Endpoint;
  // The global teardown runs in this same process.
  globalThis.__waygateApiAwsEmulators = emulators.value;
  if (process.env.WAYGATE_TEST_PREWARM === '0') return;
  // Its first prewarm starts now and is not awaited: the first test file loads meanwhile.
  const pool = await startFunctionsPool({ dynamodbEndpoint, sqsEndpoint, s3Endpoint }).catch(
    async (error) => {
      await emulators.value.stop();
      throw error;
    },
  );
  process.env.WAYGATE_TEST_FUNCTIONS_POOL = pool.url;
  globalThis.__waygateApiAwsPool = pool;
}
