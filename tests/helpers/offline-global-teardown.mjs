/**
 * Global teardown of the jest project `api-aws`: stops the prewarm pool (with every deployment it still holds: the
 * one prewarmed for a test that never came, any a test did not give back) and then the emulators its global setup
 * started, which those deployments used.
 */
export default async function globalTeardown() {
  await globalThis.__waygateApiAwsPool?.stop();
  globalThis.__waygateApiAwsPool = undefined;
  delete process.env.WAYGATE_TEST_FUNCTIONS_POOL;
  await globalThis.__waygateApiAwsEmulators?.stop();
  globalThis.__waygateApiAwsEmulators = undefined;
}
