import { MissingPatchError } from './engines/baileys/installed-patches.js';

/**
 * For the entry points' start: a start refused for a missing patch ends the process with the check's message alone
 * (it names the patch and what to do; a stack trace would only bury it); any other failure is rethrown as it was.
 */
export function exitOnMissingPatch(error: unknown): never {
  if (error instanceof MissingPatchError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
