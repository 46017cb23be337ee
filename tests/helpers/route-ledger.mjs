/**
 * The route ledger of a jest project whose files must together reach every route (the project `api-offline`, whose
 * files are a selection): the global setup makes a folder and names it in WAYGATE_ROUTE_LEDGER, each test file
 * writes what its gateway answered there (route-ledger-setup.ts), and the global teardown fails the run, naming
 * them, when a documented operation was never answered with a success (2xx or 3xx). Plain JS, as the global setup
 * and teardown load no TypeScript.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Makes the ledger's folder and announces it to the workers (they inherit this process's environment). */
export function openRouteLedger() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-route-ledger-'));
  process.env.WAYGATE_ROUTE_LEDGER = folder;
  return folder;
}

/** What the ledger in `folder` shows: every documented operation, and those never answered with a success. */
export function readRouteLedger(folder) {
  const documented = new Set();
  const succeeded = new Set();
  const files = fs.readdirSync(folder).filter((name) => name.endsWith('.json'));
  for (const name of files) {
    const entry = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8'));
    for (const operation of entry.documented) documented.add(operation);
    for (const answer of entry.answered) {
      const status = Number(answer.slice(answer.lastIndexOf(' ') + 1));
      if (status >= 200 && status < 400) succeeded.add(answer.slice(0, answer.lastIndexOf(' ')));
    }
  }
  const missing = [...documented].filter((operation) => !succeeded.has(operation)).sort();
  return { files: files.length, documented: documented.size, missing };
}

/**
 * Fails (throws) when some documented operation was never answered with a success; removes the folder either way.
 * A run of only some of the project's files (a path filter) reaches fewer routes by design: `partial` skips the
 * check then.
 */
export function closeRouteLedger(folder, { partial }) {
  try {
    const ledger = readRouteLedger(folder);
    if (partial || ledger.files === 0 || ledger.missing.length === 0) return ledger;
    throw new Error(
      `The project's files answered ${ledger.documented - ledger.missing.length} of ${ledger.documented} ` +
        `documented operations with a success; never:\n  ${ledger.missing.join('\n  ')}\n` +
        'Add a call of each to a file of the project (jest.config.js lists them).',
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
