/**
 * The aws mode for the API suite (jest project `api-aws`), behind the same TestGateway interface as the embedded
 * server. Per gateway: fresh tables, queues and media bucket under a new prefix on the emulators the project's global
 * setup started (offline-global-setup.mjs); the host in this process (DEPLOYMENT_MODE=aws, the test engine, so tests
 * drive `gw.network` and see `gw.gateway.events` as they do embedded); and serverless offline serving serverless.yml's
 * functions as a child (scripts/offline-stack.mjs with `host: false`), which is what `gw.url` answers.
 *
 * A gateway whose overrides leave the functions at their defaults takes its stores and functions prewarmed from the
 * project's pool (functions-pool.mjs via functions-pool-client.ts), so only its host starts here; any other gateway,
 * or any when the pool has none to give, makes its stores and starts its functions itself (offline-functions.mjs,
 * which the pool uses too). Either way the functions are stopped when the gateway closes.
 *
 * A restart is a new host on the same stores, as a redeployed container would be; the functions restart only when
 * the new overrides change what they read, as a Lambda is redeployed only when its configuration changes.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { pino } from 'pino';
import { type RunningGateway, startGateway } from '#embedded/gateway.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { createTables } from '#shared/adapters/dynamodb/dynamodb-tables.js';
import { createSqsQueues } from '#shared/adapters/sqs/sqs-queues.js';
import { loadEnv } from '#shared/config/env.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { type PooledDeployment, releasePooled, takePooled } from './functions-pool-client.js';
import { deploymentEnv, startInProcessFunctions } from './inprocess-functions.js';
import {
  deploymentNames,
  freePort,
  functionsEnv,
  generateAdminKey,
  sameEnv,
  startFunctions,
} from './offline-functions.mjs';
import { apiClient, TEST_DEFAULTS, type TestGateway } from './test-gateway.js';

/** Variables only the host reads; a change of these restarts the host alone. */
const HOST_ONLY = new Set(['BOOTSTRAP_ADMIN_KEY']);
const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
const verbose = process.env.WAYGATE_TEST_OFFLINE_VERBOSE === '1';

/** A deployment's own tables, queues, bucket and RPC secret: made here, or by the pool ahead of time. */
type Stores = Omit<PooledDeployment, 'id' | 'url'>;

/** What one gateway keeps across restarts: its stores, the host's data dir, the network and the secrets. */
interface Deployment extends Endpoints, Stores {
  dataDir: string;
  network: TestNetwork;
  adminKey: string;
}

interface Functions {
  url: string;
  /** The overrides the functions were started with (host-only ones left out). */
  overrides: Record<string, string>;
  stop(): Promise<void>;
}

let counter = 0;

interface Endpoints {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  s3Endpoint: string;
}

function emulatorEndpoints(): Endpoints {
  const dynamodbEndpoint = process.env.WAYGATE_TEST_DYNAMODB_ENDPOINT;
  const sqsEndpoint = process.env.WAYGATE_TEST_SQS_ENDPOINT;
  const s3Endpoint = process.env.WAYGATE_TEST_S3_ENDPOINT;
  if (!dynamodbEndpoint || !sqsEndpoint || !s3Endpoint) {
    throw new Error(
      'WAYGATE_TEST_DYNAMODB_ENDPOINT / WAYGATE_TEST_SQS_ENDPOINT / WAYGATE_TEST_S3_ENDPOINT are unset: run the API ' +
        'suite through the jest project api-aws, whose global setup starts the emulators',
    );
  }
  return { dynamodbEndpoint, sqsEndpoint, s3Endpoint };
}

/** Both tables, the four queues and the media bucket of a new prefix, as the deployment's emulators make them. */
async function createStores(endpoints: Endpoints, overrides: Record<string, string>): Promise<Stores> {
  counter += 1;
  const names = deploymentNames(`${counter}-${randomBytes(3).toString('hex')}`);
  const { tablePrefix, queuePrefix, mediaBucket } = names;
  const dynamo = new DynamoDBClient({
    endpoint: endpoints.dynamodbEndpoint,
    region: REGION,
    credentials: CREDENTIALS,
  });
  const sqs = new SQSClient({ endpoint: endpoints.sqsEndpoint, region: REGION, credentials: CREDENTIALS });
  const s3 = new S3Client({
    endpoint: endpoints.s3Endpoint,
    region: REGION,
    credentials: CREDENTIALS,
    forcePathStyle: true,
  });
  try {
    const [queues] = await Promise.all([
      createSqsQueues(sqs, {
        prefix: queuePrefix,
        visibilityTimeoutSeconds: Number(overrides.COMMAND_VISIBILITY_TIMEOUT_S ?? 60),
        maxReceiveCount: Number(overrides.COMMAND_MAX_RECEIVES ?? 5),
      }),
      createTables(dynamo, tablePrefix),
      s3.send(new CreateBucketCommand({ Bucket: mediaBucket })),
    ]);
    return { ...names, queues };
  } finally {
    dynamo.destroy();
    sqs.destroy();
    s3.destroy();
  }
}

const functionsOverrides = (overrides: Record<string, string>) =>
  Object.fromEntries(Object.entries(overrides).filter(([name]) => !HOST_ONLY.has(name)));

/**
 * Where this project runs the functions (WAYGATE_TEST_FUNCTIONS, set by its setup file): `offline`, serverless
 * offline serving serverless.yml (the project api-offline); `inprocess`, the same handlers in this process on the
 * same stores (api-aws: no process start per gateway).
 */
const functionsMode = (): 'offline' | 'inprocess' =>
  process.env.WAYGATE_TEST_FUNCTIONS === 'offline' ? 'offline' : 'inprocess';

/** Starts the functions of `d` here (not from the pool) with the functions' part of `overrides`. */
async function startOwnFunctions(d: Deployment, overrides: Record<string, string>): Promise<Functions> {
  const own = functionsOverrides(overrides);
  const functions =
    functionsMode() === 'offline' ? await startFunctions(d, own) : await startInProcessFunctions(d, own);
  return { url: functions.url, overrides: own, stop: () => functions.stop() };
}

async function startHost(
  d: Deployment,
  overrides: Record<string, string>,
): Promise<{ gateway: RunningGateway; env: Record<string, string> }> {
  const hostPort = await freePort();
  const env: Record<string, string> = {
    ...TEST_DEFAULTS,
    ...deploymentEnv(d),
    DATA_DIR: d.dataDir,
    BIND_HOST: '127.0.0.1',
    HOST_PORT: String(hostPort),
    NODE_URL: `http://127.0.0.1:${hostPort}`,
    BOOTSTRAP_ADMIN_KEY: d.adminKey,
    ...overrides,
  };
  const logger = verbose
    ? pino({ level: 'debug', base: { side: 'host' } }, pino.destination(2))
    : silentLogger;
  const gateway = await startGateway({ env: loadEnv(env), testNetwork: d.network, logger });
  return { gateway, env };
}

/** Starts the host and (unless still running) the functions side by side; neither is left running on failure. */
async function launch(
  d: Deployment,
  overrides: Record<string, string>,
  running: Functions | null,
): Promise<TestGateway> {
  const [host, functions] = await Promise.allSettled([
    startHost(d, overrides),
    running ? Promise.resolve(running) : startOwnFunctions(d, overrides),
  ]);
  if (host.status === 'rejected' || functions.status === 'rejected') {
    if (host.status === 'fulfilled') await host.value.gateway.close();
    if (functions.status === 'fulfilled') await functions.value.stop();
    throw host.status === 'rejected' ? host.reason : (functions as PromiseRejectedResult).reason;
  }
  const { gateway, env } = host.value;
  const current = functions.value;
  return {
    ...apiClient(current.url, d.adminKey),
    url: current.url,
    adminKey: d.adminKey,
    dataDir: d.dataDir,
    network: d.network,
    gateway,
    env,
    async restart(more = {}) {
      const next = { ...overrides, ...more };
      await gateway.close();
      if (sameEnv(current.overrides, functionsOverrides(next))) return launch(d, next, current);
      await current.stop();
      return launch(d, next, null);
    },
    async close() {
      await Promise.all([gateway.close(), current.stop()]);
      fs.rmSync(d.dataDir, { recursive: true, force: true });
    },
  };
}

export async function startOfflineTestGateway(overrides: Record<string, string> = {}): Promise<TestGateway> {
  const endpoints = emulatorEndpoints();
  // Only gateways on the default functions are prewarmed (the most of them); the others start theirs in launch.
  const pooled =
    functionsMode() === 'offline' && Object.keys(functionsOverrides(overrides)).length === 0
      ? await takePooled(functionsEnv())
      : null;
  let functions: Functions | null = null;
  let stores: Stores;
  if (pooled) {
    const { id, url, ...rest } = pooled;
    stores = rest;
    functions = { url, overrides: {}, stop: () => releasePooled(id) };
  } else {
    stores = await createStores(endpoints, overrides);
  }
  const deployment: Deployment = {
    ...endpoints,
    ...stores,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-api-aws-')),
    network: new TestNetwork(),
    adminKey: overrides.BOOTSTRAP_ADMIN_KEY ?? generateAdminKey(),
  };
  try {
    return await launch(deployment, overrides, functions);
  } catch (error) {
    fs.rmSync(deployment.dataDir, { recursive: true, force: true });
    throw error;
  }
}
