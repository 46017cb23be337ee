/**
 * A test file's side of the api-aws prewarm pool (functions-pool.mjs, run by the project's global setup, which
 * announces it in WAYGATE_TEST_FUNCTIONS_POOL): takes a deployment whose stores are made and whose serverless offline
 * answers already, and gives it back to be stopped. Without a pool, or when it has nothing to give, `takePooled`
 * answers null and the caller starts its own deployment as it would without one.
 */
import type { SqsQueueUrls } from '#shared/adapters/sqs/sqs-queues.js';

/** A prewarmed deployment as the pool hands it over. */
export interface PooledDeployment {
  id: string;
  url: string;
  tablePrefix: string;
  queuePrefix: string;
  mediaBucket: string;
  queues: SqsQueueUrls;
  hostRpcToken: string;
}

const verbose = process.env.WAYGATE_TEST_OFFLINE_VERBOSE === '1';

/** The pool's URL (with its token), or null when this run has none (WAYGATE_TEST_PREWARM=0, or another project). */
const poolUrl = () => process.env.WAYGATE_TEST_FUNCTIONS_POOL || null;

/**
 * A prewarmed deployment whose functions run with `env` (functionsEnv of offline-functions.mjs), waiting for the one
 * under way if need be; null when there is no pool or it cannot give one (another env, a failed prewarm).
 */
export async function takePooled(env: Record<string, string>): Promise<PooledDeployment | null> {
  const url = poolUrl();
  if (!url) return null;
  let response: Response;
  try {
    response = await fetch(`${url}/take`, { method: 'POST', body: JSON.stringify({ env }) });
  } catch (error) {
    // The pool is gone (a run being torn down): the functions start here, as without one.
    if (verbose) process.stderr.write(`[pool] unreachable: ${String(error)}\n`);
    return null;
  }
  const text = await response.text();
  if (response.status === 200) return JSON.parse(text) as PooledDeployment;
  if (verbose) process.stderr.write(`[pool] no deployment (${response.status}): ${text}\n`);
  return null;
}

/** Stops a deployment taken from the pool; answers once its serverless offline has exited. */
export async function releasePooled(id: string): Promise<void> {
  const url = poolUrl();
  if (!url) throw new Error(`no pool to release deployment ${id} to`);
  const response = await fetch(`${url}/release`, { method: 'POST', body: JSON.stringify({ id }) });
  await response.arrayBuffer();
  // 404: released already (the pool stopped it while tearing down).
  if (response.status !== 204 && response.status !== 404) {
    throw new Error(`releasing pooled deployment ${id} failed: ${response.status}`);
  }
}
