/**
 * Global setup and teardown of the jest project `aws`: the host bundle its clusters spawn and the functions' zips
 * their serverless offline runs (run-builds.mjs), and the emulators shared with api-aws and api-offline
 * (aws-emulators.mjs), on which each cluster and each adapter suite makes tables, queues and a bucket of its own.
 * offline-stack.test.ts alone starts its own, as `npm run offline` does.
 */
import { acquireEmulators, releaseEmulators } from './aws-emulators.mjs';
import { buildGatewayBundles, packageOfflineFunctions } from './run-builds.mjs';

export default async function globalSetup() {
  const results = await Promise.allSettled([
    acquireEmulators(),
    buildGatewayBundles(),
    packageOfflineFunctions(),
  ]);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    await releaseEmulators();
    throw failed.reason;
  }
}

export async function teardown() {
  await releaseEmulators();
}
