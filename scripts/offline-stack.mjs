/**
 * The aws mode on one machine, without Docker: DynamoDB Local (scripts/dynamodb-local.mjs), the local-aws-sqs
 * emulator, s3rver (scripts/s3-emulator.mjs), the tables, queues and media bucket the deployment defines (created by
 * the same helpers the adapters' tests use),
 * `serverless offline` serving serverless.yml's functions on `port`, and one host (`dist/host/main.js` with
 * DEPLOYMENT_MODE=aws) that owns the sessions. `npm run offline` (scripts/offline.mjs) runs it until Ctrl-C; tests
 * start the same stack with `startOffline({ ... })` and end it with `stop()`.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, startEmulators } from './offline-emulators.mjs';
import { startSqsTrigger } from './offline-sqs-trigger.mjs';

export { freePort, startEmulators } from './offline-emulators.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SLS = path.join(ROOT, 'node_modules', 'osls', 'bin', 'serverless.js');
const READY_TIMEOUT_MS = 180_000;
const LOCK_STALE_MS = 120_000;
const LOCAL_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_SESSION_TOKEN: '',
};

/** A fresh bootstrap admin key (`wg_` + 64 hex), for runs that were given none. */
export function generateAdminKey() {
  return `wg_${randomBytes(32).toString('hex')}`;
}

/**
 * A child in its own process group (so its own children stop with it), its output kept for error messages and
 * passed to `onOutput` line by line.
 */
function startChild(name, command, args, env, onOutput) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let tail = '';
  let partial = '';
  const take = (chunk) => {
    const text = chunk.toString();
    tail = (tail + text).slice(-8000);
    partial += text;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onOutput(name, line);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {}
  };
  // A caller that exits without stop() (a crashed test run) must not leave the group running.
  const onParentExit = () => signalGroup('SIGKILL');
  process.once('exit', onParentExit);
  const stop = async () => {
    process.removeListener('exit', onParentExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    // The leader may exit before its children: give the rest of the group a moment, then make sure.
    for (let i = 0; i < 200; i++) {
      try {
        process.kill(-child.pid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    signalGroup('SIGKILL');
  };
  return { name, child, exited, stop, output: () => tail };
}

/** Polls `probe` until it answers true; fails early when one of `children` exits. */
async function waitFor(what, probe, children, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const c of children) {
      if (c.child.exitCode !== null || c.child.signalCode !== null) {
        throw new Error(`${c.name} exited before ${what} was ready:\n${c.output()}`);
      }
    }
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const outputs = children.map((c) => `--- ${c.name}\n${c.output()}`).join('\n');
  throw new Error(`${what} not ready after ${timeoutMs} ms\n${outputs}`);
}

const answers = (url, ok = () => true) =>
  async function probe() {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return ok(response.status);
  };

/**
 * Runs `fn` while holding a lock shared by every process of this checkout: `node scripts/build.mjs` rewrites dist/,
 * and a host of another stack must not load dist/host/main.js half written. A lock older than LOCK_STALE_MS (its
 * holder died) is taken over.
 */
async function withDistLock(fn) {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'waygate-offline');
  const lock = path.join(dir, 'dist.lock');
  fs.mkdirSync(dir, { recursive: true });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} is held by another offline stack`);
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function buildHost(onOutput) {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['scripts/build.mjs'], {
    cwd: ROOT,
  });
  for (const line of `${stdout}${stderr}`.split('\n').filter(Boolean)) onOutput('build', line);
}

/**
 * Bundles and zips every function once (`sls package` into .serverless/, as a deployment does), so stacks started
 * with `prebuilt: true` run those zips instead of bundling again: about 7 of a stack's 11 seconds of start on two
 * cores.
 */
export async function packageFunctions({ onOutput = () => {} } = {}) {
  const workFolder = path.join(
    '.esbuild-offline',
    `package-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [SLS, 'package', '--stage', 'offline'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          WAYGATE_ESBUILD_WORK_FOLDER: workFolder,
          WAYGATE_ESBUILD_SKIP_BUILD: '',
          SLS_TELEMETRY_DISABLED: '1',
          SLS_NOTIFICATIONS_MODE: 'off',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    for (const line of `${stdout}${stderr}`.split('\n').filter(Boolean)) onOutput('package', line);
  } finally {
    fs.rmSync(path.join(ROOT, workFolder), { recursive: true, force: true });
  }
}

/**
 * Starts the stack. Every option is optional:
 * - `port` (env PORT, default 2785): where the API answers; `hostPort` (env HOST_PORT, default a free port): the
 *   host's RPC port; `lambdaPort`, `websocketPort`: serverless-offline's side ports (free ports by default).
 * - `tablePrefix` (env TABLE_PREFIX, default `waygate-offline-`), `queuePrefix` (default the table prefix without
 *   its trailing separator).
 * - `dynamodbEndpoint` / `sqsEndpoint` / `s3Endpoint` (env DYNAMODB_ENDPOINT / SQS_ENDPOINT / S3_ENDPOINT): use
 *   emulators that run already (LocalStack: all three http://localhost:4566) instead of starting DynamoDB Local,
 *   local-aws-sqs and s3rver; tables, queues and the media bucket (`<queue prefix>-media`) are created unless they
 *   exist (S3_BUCKET names another bucket).
 * - `bootstrapAdminKey` (env BOOTSTRAP_ADMIN_KEY; generated when absent): the first admin key, as in a deployment.
 * - `engine` (env ENGINE, default baileys), `dataDir` (default a new temporary folder, removed by `stop()`).
 * - `env`: variables for both the functions and the host (e.g. RATE_LIMIT_MAX, SEND_WAIT_MS, WA_WEBSOCKET_URL);
 *   `functionsEnv` / `hostEnv`: for one side only.
 * - `host: false` starts no host; `build: false` skips `node scripts/build.mjs` (dist/ is already fresh);
 *   `prebuilt: true` runs the function zips of an earlier `packageFunctions()` instead of bundling them again.
 * - `webhookPollers`: batches of the webhook queue the trigger has in flight at once (default 2; Lambda itself scales
 *   its pollers with the queue's depth).
 * - `webhookTrigger: false` leaves the webhook queue unconsumed; by default scripts/offline-sqs-trigger.mjs feeds
 *   it to the webhookDelivery function as its SQS trigger would (serverless offline serves HTTP events only).
 * - `onOutput(name, line)`: every line the children print (default: dropped; their last lines are in errors).
 * Answers `{ url, apiKey, hostUrl, dataDir, dynamodbEndpoint, sqsEndpoint, s3Endpoint, mediaBucket, tablePrefix,
 * queues, env, children, stop() }`.
 */
export async function startOffline(options = {}) {
  const onOutput = options.onOutput ?? (() => {});
  const baseEnv = { ...process.env, ...options.env };
  const region = baseEnv.AWS_REGION || 'us-east-1';
  const port = Number(options.port ?? baseEnv.PORT ?? 2785);
  const hostPort = Number(options.hostPort ?? (baseEnv.HOST_PORT || (await freePort())));
  const lambdaPort = Number(options.lambdaPort ?? (await freePort()));
  const websocketPort = Number(options.websocketPort ?? (await freePort()));
  const tablePrefix = options.tablePrefix ?? baseEnv.TABLE_PREFIX ?? 'waygate-offline-';
  const queuePrefix = options.queuePrefix ?? (tablePrefix.replace(/[-_.]+$/, '') || 'waygate-offline');
  const apiKey = options.bootstrapAdminKey ?? baseEnv.BOOTSTRAP_ADMIN_KEY ?? generateAdminKey();
  const hostRpcToken = baseEnv.HOST_RPC_TOKEN ?? randomBytes(32).toString('hex');
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-offline-'));

  // serverless-esbuild's work folder, one per stack: parallel stacks (test files) never build into the same one.
  const esbuildWorkFolder = path.join('.esbuild-offline', `${process.pid}-${randomBytes(4).toString('hex')}`);

  const cleanups = [];
  const stop = async () => {
    while (cleanups.length > 0) {
      const cleanup = cleanups.pop();
      await cleanup().catch(() => {});
    }
  };
  try {
    // DYNAMODB_ENDPOINT / SQS_ENDPOINT: emulators that run already (LocalStack); otherwise both start here.
    const emulators = await startEmulators({
      tablePrefix,
      queuePrefix,
      region,
      dynamodbEndpoint: options.dynamodbEndpoint ?? baseEnv.DYNAMODB_ENDPOINT,
      sqsEndpoint: options.sqsEndpoint ?? baseEnv.SQS_ENDPOINT,
      s3Endpoint: options.s3Endpoint ?? baseEnv.S3_ENDPOINT,
      ...(baseEnv.S3_BUCKET ? { mediaBucket: baseEnv.S3_BUCKET } : {}),
      env: baseEnv,
    });
    cleanups.push(() => emulators.stop());
    if (ownDataDir) cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const { queues } = emulators;

    // What a deployment gives both sides (serverless.yml's offline stage reads these for the functions).
    const awsEnv = {
      ...LOCAL_CREDENTIALS,
      AWS_REGION: region,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      DEPLOYMENT_MODE: 'aws',
      DYNAMODB_ENDPOINT: emulators.dynamodbEndpoint,
      SQS_ENDPOINT: emulators.sqsEndpoint,
      S3_ENDPOINT: emulators.s3Endpoint,
      S3_BUCKET: emulators.mediaBucket,
      TABLE_PREFIX: tablePrefix,
      COMMAND_QUEUE_URL: queues.commandQueueUrl,
      WEBHOOK_QUEUE_URL: queues.standardQueueUrl,
      HOST_RPC_TOKEN: hostRpcToken,
    };

    const children = [];
    const functions = startChild(
      'offline',
      process.execPath,
      [
        SLS,
        'offline',
        'start',
        '--stage',
        'offline',
        '--region',
        region,
        '--host',
        '127.0.0.1',
        '--httpPort',
        String(port),
        '--lambdaPort',
        String(lambdaPort),
        '--websocketPort',
        String(websocketPort),
        '--noPrependStageInUrl',
        '--noTimeout',
        // The functions see this process's variables (RATE_LIMIT_MAX, SEND_WAIT_MS …) under serverless.yml's own.
        '--localEnvironment',
      ],
      {
        ...baseEnv,
        ...awsEnv,
        ...options.functionsEnv,
        WAYGATE_ESBUILD_WORK_FOLDER: esbuildWorkFolder,
        WAYGATE_ESBUILD_SKIP_BUILD: options.prebuilt ? 'true' : '',
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
      },
      onOutput,
    );
    children.push(functions);
    cleanups.push(async () => {
      fs.rmSync(path.join(ROOT, esbuildWorkFolder), { recursive: true, force: true });
      try {
        fs.rmdirSync(path.join(ROOT, '.esbuild-offline')); // only when no other stack builds there
      } catch {}
    });
    cleanups.push(() => functions.stop());

    let hostUrl = null;
    if (options.host !== false) {
      // Build, start and wait for the host under the lock: its node process has loaded dist/ once it answers.
      await withDistLock(async () => {
        if (options.build !== false) await buildHost(onOutput);
        hostUrl = `http://127.0.0.1:${hostPort}`;
        const host = startChild(
          'host',
          process.execPath,
          ['dist/host/main.js'],
          {
            ...baseEnv,
            ...awsEnv,
            ENGINE: options.engine ?? (baseEnv.ENGINE || 'baileys'),
            DATA_DIR: dataDir,
            HOST_PORT: String(hostPort),
            NODE_URL: hostUrl,
            BOOTSTRAP_ADMIN_KEY: apiKey,
            ...options.hostEnv,
          },
          onOutput,
        );
        children.push(host);
        cleanups.push(() => host.stop());
        await waitFor(
          'the host',
          answers(`${hostUrl}/healthz`, (s) => s === 200),
          children,
          READY_TIMEOUT_MS,
        );
      });
    }

    const url = `http://127.0.0.1:${port}`;
    // Readiness pings both tables through a function: the whole path (offline → Lambda → DynamoDB) answers.
    await waitFor(
      'serverless offline',
      answers(`${url}/api/health/ready`, (s) => s === 200),
      children,
      options.readyTimeoutMs ?? READY_TIMEOUT_MS,
    );
    if (options.webhookTrigger !== false) {
      const trigger = await startSqsTrigger({
        sqsEndpoint: emulators.sqsEndpoint,
        region,
        queueUrl: queues.standardQueueUrl,
        lambdaUrl: `http://127.0.0.1:${lambdaPort}`,
        functionName: 'waygate-offline-webhookDelivery',
        pollers: options.webhookPollers,
      });
      cleanups.push(() => trigger.stop());
    }
    return {
      url,
      apiKey,
      hostUrl,
      dataDir,
      dynamodbEndpoint: emulators.dynamodbEndpoint,
      sqsEndpoint: emulators.sqsEndpoint,
      s3Endpoint: emulators.s3Endpoint,
      mediaBucket: emulators.mediaBucket,
      tablePrefix,
      queues,
      env: awsEnv,
      children: Object.fromEntries(children.map((c) => [c.name, c.child])),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
