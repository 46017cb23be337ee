/**
 * Global setup and teardown of the jest project `aws`: the host bundle its clusters spawn and the functions' zips
 * their serverless offline runs (run-builds.mjs), and the emulators shared with api-aws and api-offline
 * (aws-emulators.mjs), on which each cluster makes its own tables, queues and bucket. The files that test the
 * emulators' start themselves (offline-stack, the DynamoDB adapters' own) still start their own.
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
