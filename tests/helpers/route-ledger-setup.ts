/**
 * Setup file of a jest project that keeps a route ledger (its global setup names the folder in
 * WAYGATE_ROUTE_LEDGER): after each test file, the operations its gateway answered (openapi-conformance.ts) are
 * written there, one file per test file, for the project's global teardown (route-ledger.mjs) to check that the
 * project's files together answer every documented operation with a success.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from '@jest/globals';
import { answeredOperations, documentedOperations } from './openapi-conformance.js';

afterAll(() => {
  const folder = process.env.WAYGATE_ROUTE_LEDGER;
  if (!folder) return;
  const file = expect.getState().testPath ?? 'unknown';
  const name = createHash('sha256').update(file).digest('hex').slice(0, 16);
  const entry = { file, documented: documentedOperations(), answered: [...answeredOperations] };
  fs.writeFileSync(path.join(folder, `${name}.json`), JSON.stringify(entry));
});
