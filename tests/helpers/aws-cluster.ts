/**
 * The aws mode with several hosts on this machine, for multi-node tests: scripts/offline-stack.mjs serves the
 * functions (serverless offline over DynamoDB Local and the SQS emulator) with no host of its own, and each host is a
 * child process (`node dist/host/main.js`, the bundle the host image runs) with DEPLOYMENT_MODE=aws
 * and its own DATA_DIR and AUTH_DIR, as separate containers would have: hosts share only what a deployment shares
 * (the tables, the queues, the WhatsApp network). Each host reaches SQS through a proxy of its own
 * (aws-cluster-sqs.ts), so a test can hold one host's receives and steer commands to the other. The test reads
 * session rows (ownership is not in the API) straight from the data table.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { openDynamoDbDataStore } from '#shared/adapters/dynamodb/dynamodb-stores.js';
import type { Session } from '#shared/domain/session.js';
import { withSimCa } from '#tests/wa-sim/tls/sim-tls.js';
import { type SqsProxy, startSqsProxy } from './aws-cluster-sqs.js';
import { builtEntry } from './built-entry.js';
import { exited } from './gateway-process.js';
import { waitFor } from './test-gateway.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Lease timings every host of the cluster runs with (LEASE_TTL_MS, LEASE_RENEW_MS, LEASE_SWEEP_MS). */
export interface LeaseTimings {
  ttlMs: number;
  renewMs: number;
  sweepMs: number;
}

interface OfflineStack {
  url: string;
  apiKey: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  tablePrefix: string;
  /** What a deployment gives both sides: DEPLOYMENT_MODE, endpoints, table prefix, queue URLs, HOST_RPC_TOKEN. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

interface OfflineStackScript {
  freePort(): Promise<number>;
  generateAdminKey(): string;
  startOffline(options: Record<string, unknown>): Promise<OfflineStack>;
}

export interface ClusterHost {
  nodeId: string;
  /** The RPC URL the host advertises in its leases (NODE_URL). */
  nodeUrl: string;
  dataDir: string;
  child: ChildProcess;
  /** Every line the host printed (pino JSON at LOG_LEVEL, then the banner). */
  output: string[];
  /**
   * Holds (true) or lets through (false) this host's receives from the command queue, as if it were busy: commands
   * then go to the other hosts. Nothing else of the host changes (its sweep, RPC and sends still run).
   */
  holdCommands(hold: boolean): void;
  /** Ends the process with SIGKILL (no shutdown: leases are left to lapse) and waits for it to be gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful shutdown), then SIGKILL after 15 s. */
  stop(): Promise<void>;
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
}

export interface AwsCluster {
  /** The API's base URL (serverless offline). */
  url: string;
  api<T = any>(method: string, urlPath: string, body?: unknown): Promise<ApiAnswer<T>>;
  /** The stored session row, with its lease fields (nodeId, nodeUrl, claimedAt, leaseExpiresAt). */
  row(sessionId: string): Promise<Session>;
  /**
   * Starts a host and waits for its banner. The same `nodeId` may be started again after a kill (a restarted
   * container keeps its name); each start gets fresh DATA_DIR and AUTH_DIR folders, sharing nothing.
   */
  startHost(nodeId: string): Promise<ClusterHost>;
  stop(): Promise<void>;
}

export interface AwsClusterOptions {
  leases: LeaseTimings;
  /** Variables for the functions and the hosts (e.g. SEND_WAIT_MS, and the simulator's WA_WEBSOCKET_URL). */
  env: Record<string, string>;
  /** Variables for the hosts only. */
  hostEnv?: Record<string, string>;
}

async function loadOfflineScript(): Promise<OfflineStackScript> {
  const script = fileURLToPath(new URL('../../scripts/offline-stack.mjs', import.meta.url));
  return (await import(script)) as OfflineStackScript;
}

/** Starts the functions and the stores; hosts come with `startHost`. */
export async function startAwsCluster(options: AwsClusterOptions): Promise<AwsCluster> {
  const offline = await loadOfflineScript();
  const stack = await offline.startOffline({
    host: false,
    port: await offline.freePort(),
    // The project's global setup (aws-project-setup.mjs): the run's emulators and the functions' zips.
    dynamodbEndpoint: process.env.WAYGATE_TEST_DYNAMODB_ENDPOINT,
    sqsEndpoint: process.env.WAYGATE_TEST_SQS_ENDPOINT,
    s3Endpoint: process.env.WAYGATE_TEST_S3_ENDPOINT,
    prebuilt: process.env.WAYGATE_TEST_FUNCTIONS_PREBUILT === '1',
    // Fresh per cluster: the emulators outlive a file, and a worker may run two cluster files one after another.
    tablePrefix: `jest-mn-${process.pid}-${randomBytes(3).toString('hex')}-`,
    bootstrapAdminKey: offline.generateAdminKey(),
    env: { LOG_LEVEL: 'warn', ...options.env },
  });
  const dynamo = new DynamoDBClient({
    endpoint: stack.dynamodbEndpoint,
    region: stack.env.AWS_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const data = openDynamoDbDataStore({ client: dynamo, tablePrefix: stack.tablePrefix });
  const hosts: ClusterHost[] = [];
  const folders: string[] = [];
  const proxies: SqsProxy[] = [];

  const startHost = async (nodeId: string): Promise<ClusterHost> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `waygate-mn-${nodeId}-`));
    folders.push(dataDir);
    const port = await offline.freePort();
    const nodeUrl = `http://127.0.0.1:${port}`;
    const queue = await startSqsProxy(stack.sqsEndpoint);
    proxies.push(queue);
    const host = spawnHost({
      queue,
      nodeId,
      nodeUrl,
      dataDir,
      env: {
        ...options.env,
        ...stack.env,
        SQS_ENDPOINT: queue.endpoint,
        BOOTSTRAP_ADMIN_KEY: stack.apiKey,
        DATA_DIR: dataDir,
        AUTH_DIR: path.join(dataDir, 'auth'),
        BIND_HOST: '127.0.0.1',
        HOST_PORT: String(port),
        NODE_ID: nodeId,
        NODE_URL: nodeUrl,
        LEASE_TTL_MS: String(options.leases.ttlMs),
        LEASE_RENEW_MS: String(options.leases.renewMs),
        LEASE_SWEEP_MS: String(options.leases.sweepMs),
        LOG_LEVEL: 'debug',
        ...options.hostEnv,
      },
    });
    hosts.push(host);
    await waitFor(
      () => {
        if (host.child.exitCode !== null || host.child.signalCode !== null) {
          throw new Error(`host ${nodeId} exited:\n${host.output.join('\n')}`);
        }
        return host.output.some((line) => line.includes(`Waygate host ${nodeId} is up`));
      },
      60_000,
      50,
    );
    return host;
  };

  return {
    url: stack.url,
    async api(method, urlPath, body) {
      const response = await fetch(`${stack.url}${urlPath}`, {
        method,
        headers: {
          'x-api-key': stack.apiKey,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    async row(sessionId) {
      const session = await data.sessions.findById(sessionId);
      if (!session) throw new Error(`no session row ${sessionId}`);
      return session;
    },
    startHost,
    async stop() {
      await Promise.all(hosts.map((host) => host.stop()));
      await data.close();
      dynamo.destroy();
      await Promise.all(proxies.map((proxy) => proxy.stop()));
      await stack.stop();
      for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

function spawnHost(options: {
  queue: SqsProxy;
  nodeId: string;
  nodeUrl: string;
  dataDir: string;
  env: Record<string, string>;
}): ClusterHost {
  const child = spawn(process.execPath, [builtEntry('host/main')], {
    cwd: ROOT,
    // Its Baileys engine reaches the simulator's media host, whose certificate the test CA signs.
    env: withSimCa({ ...process.env, NODE_OPTIONS: '', ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  // WAYGATE_TEST_HOST_LOGS=<folder>: each host's output also goes to <folder>/<nodeId>-<pid>.log (kept after the run).
  const logDir = process.env.WAYGATE_TEST_HOST_LOGS;
  const logFile = logDir ? path.join(logDir, `${options.nodeId}-${child.pid}.log`) : null;
  if (logDir) fs.mkdirSync(logDir, { recursive: true });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      output.push(line);
      if (logFile) fs.appendFileSync(logFile, `${line}\n`);
    });
  }
  // A test run that dies without stop() must not leave hosts running (they hold leases and simulator sockets).
  const onParentExit = () => child.kill('SIGKILL');
  process.once('exit', onParentExit);
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    nodeId: options.nodeId,
    nodeUrl: options.nodeUrl,
    dataDir: options.dataDir,
    child,
    output,
    holdCommands(hold) {
      options.queue.paused = hold;
    },
    async kill() {
      process.removeListener('exit', onParentExit);
      if (gone()) return;
      const done = exited(child);
      child.kill('SIGKILL');
      await done;
    },
    async stop() {
      process.removeListener('exit', onParentExit);
      if (gone()) return;
      const done = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(timer);
    },
  };
}
