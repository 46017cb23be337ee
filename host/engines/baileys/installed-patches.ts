/**
 * Checks that the installed Baileys and libsignal carry every behaviour Waygate's patches give them (patches/,
 * applied by the postinstall of `npm install`, a production install's too). The host runs this check when it starts
 * with ENGINE=baileys. Without it, an install whose postinstall did not run, or a package upgraded past its patch,
 * would start and run: the first sign would be lost messages (no receipt hook), trusted-contact tokens issued again
 * (ended transactions) or a contact refusing everything sent to it (libsignal). Each check looks in the patched
 * file for text that only the patched file has, and for none that only the stock file has. The serverless-esbuild
 * patch patches a dev tool (a `.dev.patch`, skipped by production installs) and is not checked here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const BAILEYS_PATCH = 'patches/@whiskeysockets+baileys+7.0.0-rc14.patch';
const LIBSIGNAL_PATCH = 'patches/libsignal+6.0.0.patch';

export type PatchedPackage = '@whiskeysockets/baileys' | 'libsignal';

/** One behaviour a patch gives one file. */
export interface PatchCheck {
  /** The patch file that gives it, as named under the repository's root. */
  patch: string;
  behaviour: string;
  package: PatchedPackage;
  /** The patched file, inside its package. */
  file: string;
  /** Text that only the patched file has. */
  has: readonly (string | RegExp)[];
  /** Text that only the stock file has. */
  lacks?: readonly RegExp[];
}

/** A call that hands Node's crypto a Buffer key where the patches hand it a KeyObject. */
const BUFFER_KEY = /\bcreate(?:Cipheriv|Decipheriv|Hmac)\([^,()]*, key[,)]/;

/** Every runtime behaviour of the patches, each hunk of a patched file covered by at least one entry. */
export const PATCH_CHECKS: readonly PatchCheck[] = [
  {
    patch: BAILEYS_PATCH,
    behaviour:
      "the receipt hook (beforeMessageReceipt stores a message before its receipt, in a keys transaction under the sends' key)",
    package: '@whiskeysockets/baileys',
    file: 'lib/Socket/messages-recv.js',
    has: [
      'await config.beforeMessageReceipt(msg);',
      'const txKey = authState.creds.me.id;',
      'let participant = receiptParticipant;',
      'await sendReceipt(receiptJid, participant, [msg.key.id], type);',
      'if (!cleaned) {',
    ],
  },
  {
    patch: BAILEYS_PATCH,
    behaviour:
      'ended key-store transactions count as none (writes of work a transaction left running are stored)',
    package: '@whiskeysockets/baileys',
    file: 'lib/Utils/auth-utils.js',
    has: [
      'return !!activeTransaction();',
      'return ctx && !ctx.ended ? ctx : undefined;',
      /get: async \(type, ids\) => \{\s+const ctx = activeTransaction\(\);/,
      /set: async \(data\) => \{\s+const ctx = activeTransaction\(\);/,
      'const existing = activeTransaction();',
      'ctx.ended = true;',
    ],
  },
  {
    patch: BAILEYS_PATCH,
    behaviour: "KeyObject keys for Baileys' HMAC and AES calls",
    package: '@whiskeysockets/baileys',
    file: 'lib/Utils/crypto.js',
    has: ['const secretKey = (key) => (typeof key === '],
    lacks: [BUFFER_KEY],
  },
  {
    patch: BAILEYS_PATCH,
    behaviour: 'a KeyObject key for the reporting token',
    package: '@whiskeysockets/baileys',
    file: 'lib/Utils/reporting-utils.js',
    has: ["import { createHmac, createSecretKey } from 'crypto';", 'createSecretKey(reportingSecret)'],
  },
  {
    patch: BAILEYS_PATCH,
    behaviour: 'promiseTimeout without two stack traces per frame sent',
    package: '@whiskeysockets/baileys',
    file: 'lib/Utils/generics.js',
    has: ["const origin = new Error('promiseTimeout');"],
  },
  {
    patch: LIBSIGNAL_PATCH,
    behaviour: "KeyObject keys for libsignal's HMAC and AES calls",
    package: 'libsignal',
    file: 'src/crypto.js',
    has: ['return nodeCrypto.createSecretKey(key);'],
    lacks: [BUFFER_KEY],
  },
  {
    patch: LIBSIGNAL_PATCH,
    behaviour:
      "libsignal's session copy (each decryption attempt on a copy; the session that decrypted is the open one)",
    package: 'libsignal',
    file: 'src/session_cipher.js',
    has: [
      'function copySession(session) {',
      'const attempt = copySession(session);',
      'result.session.indexInfo.closed = -1;',
    ],
  },
  {
    patch: LIBSIGNAL_PATCH,
    behaviour: "libsignal's previous counter (0 for a chain that never sent, 4294967295 read as none)",
    package: 'libsignal',
    file: 'src/session_cipher.js',
    has: [
      'msg.previousCounter = Math.max(session.currentRatchet.previousCounter, 0);',
      'previousCounter === 0xFFFFFFFF ? -1 : previousCounter',
    ],
  },
  {
    patch: LIBSIGNAL_PATCH,
    behaviour:
      "libsignal's XEdDSA verification through Node's native Ed25519 (curve25519-js took 12 ms a signature)",
    package: 'libsignal',
    file: 'src/curve.js',
    has: [
      'function xeddsaVerify(pubKey, msg, sig) {',
      'return isInit ? true : xeddsaVerify(pubKey, msg, sig);',
    ],
  },
];

/** The text of a file of an installed package; null when the package or the file is not there. */
export type PackageFileReader = (pkg: PatchedPackage, file: string) => string | null;

/** Whether `text` (a patched file's content) shows the behaviour of `check`. */
export function showsBehaviour(check: PatchCheck, text: string): boolean {
  const found = (mark: string | RegExp) => (typeof mark === 'string' ? text.includes(mark) : mark.test(text));
  return check.has.every(found) && !(check.lacks ?? []).some(found);
}

/** The checks the installed packages fail (none when every patch is applied). */
export function failedPatchChecks(read: PackageFileReader = readInstalled): PatchCheck[] {
  return PATCH_CHECKS.filter((check) => {
    const text = read(check.package, check.file);
    return text === null || !showsBehaviour(check, text);
  });
}

/** The installed packages lack a patched behaviour; the message names each patch file and what it gives. */
export class MissingPatchError extends Error {
  constructor(readonly failed: readonly PatchCheck[]) {
    const lines = failed.map(
      (check) => `  - ${check.patch}: ${check.behaviour} (${check.package}/${check.file})`,
    );
    super(
      [
        'Waygate cannot run the Baileys engine: the installed packages lack these patches of patches/:',
        ...lines,
        'Install again in the app folder (`npm install`, or `npm install --omit=dev` for production): its ' +
          'postinstall applies them (patch-package) and must end without an error.',
      ].join('\n'),
    );
    this.name = 'MissingPatchError';
  }
}

/** Throws a MissingPatchError when any check fails. */
export function assertInstalledPatches(read: PackageFileReader = readInstalled): void {
  const failed = failedPatchChecks(read);
  if (failed.length > 0) throw new MissingPatchError(failed);
}

/** Baileys as the host resolves it, and libsignal as that Baileys resolves it (the copy it runs). */
function readInstalled(pkg: PatchedPackage, file: string): string | null {
  try {
    const baileys = createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json');
    const manifest = pkg === 'libsignal' ? createRequire(baileys).resolve('libsignal/package.json') : baileys;
    return readFileSync(path.join(path.dirname(manifest), file), 'utf8');
  } catch {
    return null;
  }
}
