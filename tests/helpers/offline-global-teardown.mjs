/**
 * Global teardown of the jest project `api-offline`: stops the prewarm pool (with every deployment it still holds:
 * the one prewarmed for a test that never came, any a test did not give back), gives the emulators back, and checks
 * the route ledger: a full run of the project must have answered every documented operation with a success through
 * serverless offline (a run narrowed to some files or tests is not held to it).
 */
import { releaseEmulators } from './aws-emulators.mjs';
import { closeRouteLedger } from './route-ledger.mjs';

export default async function globalTeardown(globalConfig) {
  await globalThis.__waygateApiAwsPool?.stop();
  globalThis.__waygateApiAwsPool = undefined;
  delete process.env.WAYGATE_TEST_FUNCTIONS_POOL;
  await releaseEmulators();
  const folder = globalThis.__waygateRouteLedger;
  globalThis.__waygateRouteLedger = undefined;
  if (!folder) return;
  const narrowed =
    (globalConfig.testPathPatterns?.patterns?.length ?? 0) > 0 ||
    Boolean(globalConfig.testNamePattern) ||
    globalConfig.onlyChanged ||
    globalConfig.findRelatedTests;
  closeRouteLedger(folder, { partial: narrowed });
}
