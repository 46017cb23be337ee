/**
 * The functions' composition root: the dependencies every handler uses, built once per process (once per cold
 * start on Lambda). The embedded host installs the instances it shares with the functions (stores, queue, the
 * in-process host gateway); in aws mode the first handler call builds them from the environment (aws-deps.ts).
 */
import { loadEnv } from '#shared/config/env.js';
import { createAwsFunctionDeps } from './aws-deps.js';
import type { Deps } from './function-deps.js';

export { createFunctionDeps, type Deps } from './function-deps.js';

let installed: Deps | undefined;

/** Makes `deps` the instance every handler of this process uses. */
export function installDeps(deps: Deps): void {
  installed = deps;
}

/** The process's dependencies; on Lambda (DEPLOYMENT_MODE=aws, nothing installed) built on first use. */
export function getDeps(): Deps {
  if (installed) return installed;
  const env = loadEnv();
  if (env.DEPLOYMENT_MODE !== 'aws') {
    throw new Error(
      'Function dependencies are not installed: start the gateway through embedded/main.ts (npm start)',
    );
  }
  installed = createAwsFunctionDeps(env);
  return installed;
}
