/**
 * The local stand-ins for DynamoDB, SQS and S3 that `npm run offline`, the bundle benchmark and tests use: DynamoDB
 * Local (scripts/dynamodb-local.mjs), the local-aws-sqs emulator and s3rver (scripts/s3-emulator.mjs) on free ports,
 * or emulators that already run (LocalStack), with the tables, queues and media bucket of a prefix created by the
 * same helpers the adapters' tests use. The SQS emulator answers long polls as SQS does (answerLongPollsLikeSqs).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort, startDynamoDbLocal } from './dynamodb-local.mjs';
import { ensureBucket, mediaBucketName, startS3Emulator } from './s3-emulator.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The SDK warns on Node 20 about releases it has not published yet; this process creates the tables and queues.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export { freePort };

/**
 * Loads TypeScript modules of the checkout from plain node (and from jest alike): `exports` (lines such as
 * `export { createTables } from './shared/adapters/dynamodb/dynamodb-tables.ts';`) bundled into the package cache,
 * imports of packages left as they are (so they resolve from node_modules), and the result imported.
 */
export async function importTypeScript(exports) {
  const { build } = await import('esbuild');
  const dir = path.join(ROOT, 'node_modules', '.cache', 'waygate-offline');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `setup-${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  await build({
    stdin: { contents: exports.join('\n'), resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node24',
    outfile: file,
    logLevel: 'error',
  });
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** The table and queue helpers (TypeScript), bundled once per run. */
const loadSetupHelpers = () =>
  importTypeScript([
    "export { createTables, tableNames } from './shared/adapters/dynamodb/dynamodb-tables.ts';",
    "export { createSqsQueues } from './shared/adapters/sqs/sqs-queues.ts';",
  ]);

/** The request a queue operation of the SQS emulator serves; lets a long poll notice that its client left. */
const sqsRequests = new AsyncLocalStorage();
const POLL_MS = 20;

/**
 * local-aws-sqs 2.0.2 answers a long poll (WaitTimeSeconds > 0) only once it holds MaxNumberOfMessages messages or
 * the wait is over, so a host asking for up to 10 commands saw each one up to 20 s late. SQS answers as soon as any
 * message is available. Every queue of the emulator (one class) polls here in short receives until one yields a
 * message, the wait ends, or the client has gone (a stopped consumer): a receive nobody reads takes no message, which
 * would otherwise stay invisible for its visibility timeout.
 */
function answerLongPollsLikeSqs(queueClass) {
  if (queueClass[Symbol.for('waygate.longPollLikeSqs')]) return;
  queueClass[Symbol.for('waygate.longPollLikeSqs')] = true;
  const receive = queueClass.receive;
  queueClass.receive = async function receiveLikeSqs(options) {
    const waitSeconds = Number(options.WaitTimeSeconds ?? this.ReceiveMessageWaitTimeSeconds ?? 0);
    const deadline = Date.now() + waitSeconds * 1000;
    const request = sqsRequests.getStore();
    for (;;) {
      if (request?.gone) return [];
      const received = await receive.call(this, { ...options, WaitTimeSeconds: 0 });
      if (received.length > 0 || Date.now() >= deadline) return received;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
}

/** Starts local-aws-sqs on a free port; answers its endpoint and `stop()`. */
async function startSqsEmulator(port) {
  const { createRequestHandler } = await import('local-aws-sqs');
  const options = { port, hostname: '127.0.0.1', emulateQueueCreationLifecycle: false };
  const { service, requestHandler } = createRequestHandler(options);
  // The queue class is not exported: take it from a queue of a throwaway service.
  const probe = createRequestHandler({ ...options, queues: [{ QueueName: 'probe' }] });
  answerLongPollsLikeSqs(Object.getPrototypeOf(probe.service.Queues[0]));
  const server = http.createServer((req, res) => {
    const request = { gone: false };
    res.once('close', () => {
      request.gone = true;
    });
    sqsRequests.run(request, () => requestHandler(req, res));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  // Queue URLs carry the emulator's port (createSqsServer does the same once it listens).
  service.PORT = actualPort;
  const endpoint = `http://127.0.0.1:${actualPort}`;
  const stop = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { endpoint, stop };
}

/** True when the data table of `tablePrefix` already exists (LocalStack's init script creates the tables). */
async function tablesExist(dynamo, tablePrefix, DescribeTableCommand) {
  try {
    await dynamo.send(new DescribeTableCommand({ TableName: `${tablePrefix}data` }));
    return true;
  } catch (error) {
    if (error?.name === 'ResourceNotFoundException') return false;
    throw error;
  }
}

/** The four queue URLs when the command queue exists already (LocalStack's init script), else null. */
async function existingQueues(sqs, queuePrefix, GetQueueUrlCommand) {
  const url = async (name) => (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  try {
    return {
      commandQueueUrl: await url(`${queuePrefix}-commands.fifo`),
      commandDeadLetterQueueUrl: await url(`${queuePrefix}-commands-dlq.fifo`),
      standardQueueUrl: await url(`${queuePrefix}-events`),
      standardDeadLetterQueueUrl: await url(`${queuePrefix}-events-dlq`),
    };
  } catch (error) {
    if (/NonExistentQueue|QueueDoesNotExist/.test(String(error?.name ?? error))) return null;
    throw error;
  }
}

/**
 * Both tables and the four queues (commands FIFO + DLQ, events + DLQ) of the prefixes, created unless they exist;
 * answers the queue URLs.
 */
export async function ensureStoresAndQueues({
  dynamodbEndpoint,
  sqsEndpoint,
  region,
  tablePrefix,
  queuePrefix,
  env,
}) {
  const helpers = await loadSetupHelpers();
  const { DynamoDBClient, DescribeTableCommand } = await import('@aws-sdk/client-dynamodb');
  const { SQSClient, GetQueueUrlCommand } = await import('@aws-sdk/client-sqs');
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const dynamo = new DynamoDBClient({ endpoint: dynamodbEndpoint, region, credentials });
  const sqs = new SQSClient({ endpoint: sqsEndpoint, region, credentials });
  try {
    if (!(await tablesExist(dynamo, tablePrefix, DescribeTableCommand))) {
      await helpers.createTables(dynamo, tablePrefix);
    }
    return (
      (await existingQueues(sqs, queuePrefix, GetQueueUrlCommand)) ??
      (await helpers.createSqsQueues(sqs, {
        prefix: queuePrefix,
        visibilityTimeoutSeconds: Number(env.COMMAND_VISIBILITY_TIMEOUT_S || 60),
        maxReceiveCount: Number(env.COMMAND_MAX_RECEIVES || 5),
      }))
    );
  } finally {
    dynamo.destroy();
    sqs.destroy();
  }
}

/**
 * DynamoDB Local, the SQS emulator and the S3 emulator on free ports (or the endpoints given, e.g. LocalStack's), with
 * the tables, queues and media bucket of the prefixes. Answers the endpoints, the queue URLs, the bucket and `stop()`
 * (which stops what it started).
 */
export async function startEmulators({
  tablePrefix = 'waygate-offline-',
  queuePrefix = tablePrefix.replace(/[-_.]+$/, '') || 'waygate-offline',
  region = 'us-east-1',
  dynamodbEndpoint,
  sqsEndpoint,
  s3Endpoint,
  mediaBucket = mediaBucketName(queuePrefix),
  env = {},
} = {}) {
  const stops = [];
  const stop = async () => {
    while (stops.length > 0)
      await stops
        .pop()()
        .catch(() => {});
  };
  try {
    let dynamodb = dynamodbEndpoint;
    if (!dynamodb) {
      const local = await startDynamoDbLocal({ port: 0 });
      stops.push(() => local.stop());
      dynamodb = local.endpoint;
    }
    let sqs = sqsEndpoint;
    if (!sqs) {
      const emulator = await startSqsEmulator(0);
      stops.push(() => emulator.stop());
      sqs = emulator.endpoint;
    }
    let s3 = s3Endpoint;
    if (!s3) {
      const emulator = await startS3Emulator({ port: 0 });
      stops.push(() => emulator.stop());
      s3 = emulator.endpoint;
    }
    await ensureBucket({ endpoint: s3, region, bucket: mediaBucket });
    const queues = await ensureStoresAndQueues({
      dynamodbEndpoint: dynamodb,
      sqsEndpoint: sqs,
      region,
      tablePrefix,
      queuePrefix,
      env,
    });
    return {
      dynamodbEndpoint: dynamodb,
      sqsEndpoint: sqs,
      s3Endpoint: s3,
      mediaBucket,
      tablePrefix,
      queuePrefix,
      queues,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
