/**
 * The bundled entry point a spawned gateway or host runs (dist/, built once per run by the global setup of the
 * projects that spawn them: run-builds.mjs), as `npm start` and the host image run it.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The path (relative to the repository) of `entry`'s bundle, e.g. `embedded/main` → `dist/embedded/main.js`. */
export function builtEntry(entry: 'embedded/main' | 'host/main'): string {
  const file = `dist/${entry}.js`;
  if (process.env.WAYGATE_TEST_DIST_BUILT !== '1' || !fs.existsSync(path.join(ROOT, file))) {
    throw new Error(
      `${file} was not built for this run: spawned gateways run from the e2e and aws projects, whose global ` +
        'setup builds dist/ (tests/helpers/run-builds.mjs)',
    );
  }
  return file;
}
