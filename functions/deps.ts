/**
 * The functions' composition root: the dependencies every handler uses, built once per process (once per cold
 * start on Lambda). The embedded host installs the instances it shares with the functions (stores, queue, the
 * in-process host gateway); in aws mode the first handler call builds them from the environment (aws-deps.ts),
 * imported then and only then, so the embedded gateway never loads the AWS SDK (about 100 ms of its start).
 */
import { loadEnv } from '#shared/config/env.js';
import type { Deps } from './function-deps.js';

export { createFunctionDeps, type Deps } from './function-deps.js';

let installed: Deps | undefined;
let building: Promise<void> | undefined;
/** Why the last build failed (a bad configuration): what getDeps throws until a build succeeds. */
let buildError: unknown;

/** Makes `deps` the instance every handler of this process uses. */
export function installDeps(deps: Deps): void {
  installed = deps;
}

/**
 * Settles once `getDeps()` can answer: at once (undefined, no extra turn) when deps are installed, else after the
 * aws mode's deps are built (on Lambda, DEPLOYMENT_MODE=aws, nothing installed). Handlers await it before anything.
 */
export function depsReady(): Promise<void> | undefined {
  if (installed) return undefined;
  building ??= buildAwsDeps().catch((error: unknown) => {
    // A configuration error fails this request (and its error handler); the next one tries again.
    building = undefined;
    buildError = error;
    throw error;
  });
  return building;
}

async function buildAwsDeps(): Promise<void> {
  const env = loadEnv();
  if (env.DEPLOYMENT_MODE !== 'aws') {
    throw new Error(
      'Function dependencies are not installed: start the gateway through embedded/main.ts (npm start)',
    );
  }
  const { createAwsFunctionDeps } = await import('./aws-deps.js');
  installed ??= createAwsFunctionDeps(env);
}

/** The process's dependencies, once `depsReady()` has settled. */
export function getDeps(): Deps {
  if (installed) return installed;
  throw buildError ?? new Error('Function dependencies are not ready: a handler awaits depsReady() first');
}
