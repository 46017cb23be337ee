/**
 * Global setup of the jest project `e2e`: the gateway bundles its files spawn (run-builds.mjs), built once for the run.
 */
import { buildGatewayBundles } from './run-builds.mjs';

export default async function globalSetup() {
  await buildGatewayBundles();
}
