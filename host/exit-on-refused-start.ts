import { DataStoreUnreachableError } from './connect-stores.js';
import { MissingPatchError } from './engines/baileys/installed-patches.js';

/**
 * For the entry points' start: a start refused for a missing patch, or because the data store never answered,
 * ends the process with the check's message alone (it names what to fix; a stack trace would only bury it); any
 * other failure is rethrown as it was.
 */
export function exitOnRefusedStart(error: unknown): never {
  if (error instanceof MissingPatchError || error instanceof DataStoreUnreachableError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
