/**
 * What test files spawn, built once per jest run in its main process (every project's global setup runs there):
 * the gateway and host bundles of `npm start` (scripts/build.mjs, skipped when dist/ is current), and the functions'
 * zips of serverless.yml (`packageFunctions`, for serverless offline with `prebuilt: true`). Child processes then
 * start from plain JavaScript, as they do in production, in about a third of a second instead of tsx's
 * one and a half. Memoized on globalThis, so two projects of a run share one build.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageFunctions } from '#scripts/offline-stack.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = Symbol.for('waygate.test.runBuilds');

function once(name, start) {
  globalThis[KEY] ??= {};
  globalThis[KEY][name] ??= start();
  return globalThis[KEY][name];
}

/** dist/ as `npm start` builds it; spawned gateways and hosts run its entry points (built-entry.ts). */
export function buildGatewayBundles() {
  return once('gateway', async () => {
    await promisify(execFile)(process.execPath, ['scripts/build.mjs'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    process.env.WAYGATE_TEST_DIST_BUILT = '1';
  });
}

/** The functions packaged for the offline stage; stacks started with `prebuilt: true` run these zips. */
export function packageOfflineFunctions() {
  return once('functions', async () => {
    await packageFunctions();
    process.env.WAYGATE_TEST_FUNCTIONS_PREBUILT = '1';
  });
}
