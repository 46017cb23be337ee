/**
 * The functions side of one api-aws test deployment: serverless offline (scripts/offline-stack.mjs with
 * `host: false`) serving serverless.yml's functions on that deployment's tables, queues and bucket. Both the test
 * gateway (offline-test-gateway.ts, on demand) and the prewarm pool of the project's global setup
 * (functions-pool.mjs) start them here, so a prewarmed deployment runs exactly what an on-demand one would. Plain
 * JS, as the global setup loads no TypeScript; declarations in offline-functions.d.mts.
 */
import { randomBytes } from 'node:crypto';
import { freePort, startOffline } from '../../scripts/offline-stack.mjs';
import { TEST_DEFAULTS } from './test-defaults.mjs';

export { freePort, generateAdminKey } from '../../scripts/offline-stack.mjs';

const verbose = () => process.env.WAYGATE_TEST_OFFLINE_VERBOSE === '1';

/** Whether two environments hold the same variables with the same values. */
export const sameEnv = (a, b) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * The names and secret of a new deployment's own stores, unique per `tag` in this process: its table and queue
 * prefixes, its media bucket and its host RPC token. The pool and the on-demand path name theirs the same way.
 */
export function deploymentNames(tag) {
  const tablePrefix = `api-${process.pid}-${tag}-`;
  const queuePrefix = tablePrefix.slice(0, -1);
  return {
    tablePrefix,
    queuePrefix,
    mediaBucket: `${queuePrefix}-media`,
    hostRpcToken: randomBytes(32).toString('hex'),
  };
}

/**
 * What the functions run with besides their deployment's own HOST_RPC_TOKEN and S3_BUCKET: the test defaults and
 * `own` (the gateway's overrides that the functions read). The pool hands a prewarmed deployment only to a test
 * that asks for this same environment.
 */
export function functionsEnv(own = {}) {
  return { ...TEST_DEFAULTS, ...own, ...(verbose() ? { LOG_LEVEL: 'info' } : {}) };
}

/**
 * Starts serverless offline for `deployment` (`dynamodbEndpoint`, `sqsEndpoint`, `s3Endpoint`, `tablePrefix`,
 * `queuePrefix`, `mediaBucket`, `hostRpcToken`), creating its tables, queues and bucket unless they exist. The host
 * is not its business: the functions find it through the deployment's tables once it runs. Answers `{ url, queues,
 * alive(), stop() }`.
 */
export async function startFunctions(deployment, own = {}) {
  const stack = await startOffline({
    host: false,
    port: await freePort(),
    dynamodbEndpoint: deployment.dynamodbEndpoint,
    sqsEndpoint: deployment.sqsEndpoint,
    s3Endpoint: deployment.s3Endpoint,
    tablePrefix: deployment.tablePrefix,
    queuePrefix: deployment.queuePrefix,
    // The project's global setup packaged the functions once (offline-global-setup.mjs).
    prebuilt: process.env.WAYGATE_TEST_FUNCTIONS_PREBUILT === '1',
    env: { HOST_RPC_TOKEN: deployment.hostRpcToken, S3_BUCKET: deployment.mediaBucket, ...functionsEnv(own) },
    onOutput: verbose() ? (name, line) => process.stderr.write(`[${name}] ${line}\n`) : undefined,
  });
  const child = stack.children.offline;
  return {
    url: stack.url,
    queues: stack.queues,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: () => stack.stop(),
  };
}
