import { type Env, EnvError, loadEnv } from '#shared/config/env.js';

/** The validated environment; a bad configuration stops the process with one message naming every bad variable. */
export function loadEnvOrExit(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
