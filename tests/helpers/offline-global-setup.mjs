/**
 * Global setup of the jest project `api-offline` (a selection of the API files through serverless offline serving
 * serverless.yml's functions): the functions packaged once, the shared emulators (aws-emulators.mjs), the route
 * ledger whose check makes the selection reach every route (route-ledger.mjs), and the prewarm pool
 * (functions-pool.mjs), announced through WAYGATE_TEST_FUNCTIONS_POOL (its URL with a random token): it keeps the next
 * default deployment's stores made and its serverless offline up, so most test gateways start only their host. It
 * lives here because this process outlives every test file (a file's module registry does not).
 * WAYGATE_TEST_PREWARM=0 runs without it: every gateway then starts its own functions.
 */
import { acquireEmulators, releaseEmulators } from './aws-emulators.mjs';
import { startFunctionsPool } from './functions-pool.mjs';
import { openRouteLedger } from './route-ledger.mjs';
import { packageOfflineFunctions } from './run-builds.mjs';

export default async function globalSetup() {
  // The functions are bundled once for the run; every test gateway's serverless offline runs these zips.
  const [emulators, packaged] = await Promise.allSettled([acquireEmulators(), packageOfflineFunctions()]);
  if (emulators.status === 'rejected' || packaged.status === 'rejected') {
    await releaseEmulators();
    throw emulators.status === 'rejected' ? emulators.reason : packaged.reason;
  }
  // The global teardown runs in this same process.
  globalThis.__waygateRouteLedger = openRouteLedger();
  if (process.env.WAYGATE_TEST_PREWARM === '0') return;
  // Its first prewarm starts now and is not awaited: the first test file loads meanwhile.
  const pool = await startFunctionsPool(emulators.value).catch(async (error) => {
    await releaseEmulators();
    throw error;
  });
  process.env.WAYGATE_TEST_FUNCTIONS_POOL = pool.url;
  globalThis.__waygateApiAwsPool = pool;
}
