/**
 * Checks that the installed Baileys carries Waygate's receipt patch (patches/, applied by `npm install`'s
 * postinstall). Without it Baileys acknowledges a message before the gateway has stored it, and a crash in between
 * loses the message: the engine refuses to start rather than run that way silently.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const PATCHED_FILE = '@whiskeysockets/baileys/lib/Socket/messages-recv.js';
const MARK = 'config.beforeMessageReceipt';

/** Throws when the installed Baileys does not call `beforeMessageReceipt`. */
export function assertReceiptPatch(source: string = readFileSync(installedFile(), 'utf8')): void {
  if (!source.includes(MARK)) {
    throw new Error(
      'the installed Baileys lacks the receipt patch (patches/@whiskeysockets+baileys+*.patch): run `npm install`, ' +
        'whose postinstall applies it',
    );
  }
}

function installedFile(): string {
  return createRequire(import.meta.url).resolve(PATCHED_FILE);
}
