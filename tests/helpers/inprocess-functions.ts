/**
 * The functions side of an api-aws test deployment, in the test process: the same resource handlers Lambda runs,
 * with the dependencies a Lambda builds in aws mode (functions/aws-deps.ts: DynamoDB stores, the SQS command queue,
 * S3 media, the lease-routed host gateway over the host's RPC), behind the local gateway that turns HTTP requests
 * into API Gateway events as the embedded mode does; and the webhook delivery function, fed by the webhook queue
 * through the same poller serverless offline's deployments use (scripts/offline-sqs-trigger.mjs). What serverless offline adds (serverless.yml's routes, the
 * packaged bundles, API Gateway's own event shape) is proven by the project `api-offline`, whose files together
 * reach every route through it; this costs a test file no process start (a serverless offline boot is about 4.5 s
 * of CPU).
 */
import { readFileSync } from 'node:fs';
import { startLocalGateway } from '#embedded/local-gateway.js';
import { openAwsFunctionDeps } from '#functions/aws-deps.js';
import { installDeps } from '#functions/deps.js';
import { openAwsWebhookDeliveryDeps } from '#functions/webhook-delivery/delivery-deps.js';
import { createWebhookDeliveryHandler } from '#functions/webhook-delivery/handler.js';
import { startSqsTrigger } from '#scripts/offline-sqs-trigger.mjs';
import { loadEnv } from '#shared/config/env.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { TEST_DEFAULTS } from './test-defaults.mjs';

/** The version serverless.yml gives the functions (SERVICE_VERSION, from package.json). */
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What a deployment's functions need to reach its stores and its host. */
export interface FunctionsDeployment {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  s3Endpoint: string;
  tablePrefix: string;
  mediaBucket: string;
  hostRpcToken: string;
  queues: { commandQueueUrl: string; standardQueueUrl: string };
}

/** The variables that point a process of the aws mode (a function, a host) at the stores and queues of `d`. */
export function deploymentEnv(d: FunctionsDeployment): Record<string, string> {
  return {
    DEPLOYMENT_MODE: 'aws',
    AWS_REGION: 'us-east-1',
    DYNAMODB_ENDPOINT: d.dynamodbEndpoint,
    SQS_ENDPOINT: d.sqsEndpoint,
    S3_ENDPOINT: d.s3Endpoint,
    S3_BUCKET: d.mediaBucket,
    TABLE_PREFIX: d.tablePrefix,
    COMMAND_QUEUE_URL: d.queues.commandQueueUrl,
    WEBHOOK_QUEUE_URL: d.queues.standardQueueUrl,
    HOST_RPC_TOKEN: d.hostRpcToken,
  };
}

/** Serves the functions of `d` with `own` (their part of the test's overrides); answers their URL and `stop()`. */
export async function startInProcessFunctions(
  d: FunctionsDeployment,
  own: Record<string, string>,
): Promise<{ url: string; stop(): Promise<void> }> {
  const env = loadEnv({
    ...TEST_DEFAULTS,
    ...deploymentEnv(d),
    SERVICE_VERSION: VERSION,
    ...own,
  });
  const functions = openAwsFunctionDeps(env);
  installDeps(functions.deps);
  // The webhookDelivery function, triggered by the webhook queue as serverless.yml's event source mapping does.
  const delivery = openAwsWebhookDeliveryDeps(env);
  const trigger = await startSqsTrigger({
    sqsEndpoint: d.sqsEndpoint,
    queueUrl: d.queues.standardQueueUrl,
    handler: createWebhookDeliveryHandler(() => delivery.deps),
  });
  const server = await startLocalGateway({
    port: 0,
    host: '127.0.0.1',
    bodyLimit: env.BODY_SIZE_LIMIT,
    logger: silentLogger,
    // The MCP function answers its endpoint when enabled (functions/mcp/handler.ts), as the embedded gateway does.
    mcp: env.MCP_ENABLED,
  }).catch(async (error: unknown) => {
    await trigger.stop();
    await Promise.all([functions.close(), delivery.close()]);
    throw error;
  });
  return {
    url: server.url,
    async stop() {
      await server.close();
      await trigger.stop();
      await Promise.all([functions.close(), delivery.close()]);
    },
  };
}
