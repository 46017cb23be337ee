/**
 * The host refuses to start the Baileys engine on a Baileys or libsignal without Waygate's patches
 * (host/engines/baileys/installed-patches.ts), and the installed ones have them. Each check is shown to fail on the
 * text its file has without its patch: the installed file with the patch's hunks taken out again in memory
 * (tests/helpers/unified-diff.ts), the whole patch as well as any one hunk of it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import {
  assertInstalledPatches,
  failedPatchChecks,
  MissingPatchError,
  PATCH_CHECKS,
  type PackageFileReader,
  showsBehaviour,
} from '#host/engines/baileys/installed-patches.js';
import { type FilePatch, repositoryPatches, withoutHunks } from '#tests/helpers/unified-diff.js';

const require = createRequire(import.meta.url);
const BAILEYS = require.resolve('@whiskeysockets/baileys/package.json');

/** A file of an installed package, as the host reads it (libsignal as Baileys resolves it). */
function installed(pkg: string, file: string): string {
  const manifest = pkg === 'libsignal' ? createRequire(BAILEYS).resolve('libsignal/package.json') : BAILEYS;
  return readFileSync(manifest.replace(/package\.json$/, file), 'utf8');
}

const patches = repositoryPatches();
/** The patches of what the host runs; a `.dev.patch` patches a dev tool, which production installs leave out. */
const runtime = [...patches].filter(([name]) => !name.endsWith('.dev.patch'));
/** Declarations only: nothing of them runs. */
const typesOnly = (file: FilePatch) => file.file.endsWith('.d.ts');

const checkedFiles = runtime.flatMap(([name, files]) =>
  files.filter((file) => !typesOnly(file)).map((file) => ({ name, file })),
);

describe("Waygate's patches of Baileys and libsignal", () => {
  it('are applied to the installed packages', () => {
    expect(failedPatchChecks().map((check) => check.behaviour)).toEqual([]);
    expect(() => assertInstalledPatches()).not.toThrow();
  });

  it('are each checked, in every file they patch; the dev-only patch is not', () => {
    expect(runtime.length).toBeGreaterThanOrEqual(2);
    expect(new Set(PATCH_CHECKS.map((check) => check.patch))).toEqual(new Set(runtime.map(([name]) => name)));
    const checked = new Set(PATCH_CHECKS.map((check) => `${check.patch} ${check.package}/${check.file}`));
    expect(checked).toEqual(
      new Set(checkedFiles.map(({ name, file }) => `${name} ${file.package}/${file.file}`)),
    );
    expect([...patches.keys()].filter((name) => name.endsWith('.dev.patch'))).toEqual([
      'patches/serverless-esbuild+1.57.2.dev.patch',
    ]);
  });

  it.each(PATCH_CHECKS.map((check) => [check.behaviour, check] as const))(
    'fails without its patch: %s',
    (_behaviour, check) => {
      const file = patches
        .get(check.patch)
        ?.find((f) => f.package === check.package && f.file === check.file);
      expect(file).toBeDefined();
      const text = installed(check.package, check.file);
      expect(showsBehaviour(check, text)).toBe(true);
      expect(showsBehaviour(check, withoutHunks(text, file?.hunks ?? []))).toBe(false);
    },
  );

  it.each(checkedFiles.map(({ name, file }) => [`${file.package}/${file.file}`, name, file] as const))(
    'fails when any one hunk of %s is missing',
    (_file, name, file) => {
      const checks = PATCH_CHECKS.filter((c) => c.patch === name && c.file === file.file);
      const text = installed(file.package, file.file);
      for (const hunk of file.hunks) {
        const without = withoutHunks(text, [hunk]);
        expect({
          hunk: hunk.header,
          caught: checks.some((check) => !showsBehaviour(check, without)),
        }).toEqual({
          hunk: hunk.header,
          caught: true,
        });
      }
    },
  );

  it('stops with one message naming each missing patch, and what to do', () => {
    const [name, files] = runtime.find(([patch]) => patch.startsWith('patches/libsignal+')) ?? [];
    const cipher = files?.find((file) => file.file === 'src/session_cipher.js');
    // libsignal installed without its patch (as a production install whose postinstall skipped it would leave it).
    const unpatched: PackageFileReader = (pkg, file) =>
      pkg === 'libsignal' && file === cipher?.file
        ? withoutHunks(installed(pkg, file), cipher.hunks)
        : installed(pkg, file);
    const error = (() => {
      try {
        assertInstalledPatches(unpatched);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(MissingPatchError);
    const message = (error as Error).message;
    expect(message).toContain(`${name}: libsignal's session copy`);
    expect(message).toContain(`${name}: libsignal's previous counter`);
    expect(message).not.toContain('baileys+');
    expect(message).toMatch(/npm install.*postinstall applies them/s);
  });

  it('names a package that is not installed at all', () => {
    const failed = failedPatchChecks((pkg, file) => (pkg === 'libsignal' ? null : installed(pkg, file)));
    expect(failed.map((check) => check.package)).toEqual([
      'libsignal',
      'libsignal',
      'libsignal',
      'libsignal',
    ]);
  });

  it("awaits the receipt hook inside the keys transaction, before the receipt, under the sends' key", () => {
    const receiving = installed('@whiskeysockets/baileys', 'lib/Socket/messages-recv.js');
    const sending = installed('@whiskeysockets/baileys', 'lib/Socket/messages-send.js');
    // The hook is awaited inside the keys transaction that commits the decrypted Signal state, before the receipt.
    const hook = receiving.indexOf('await config.beforeMessageReceipt(msg)');
    expect(hook).toBeGreaterThan(receiving.indexOf('await authState.keys.transaction(async () => {'));
    expect(receiving.indexOf('await sendReceipt(receiptJid', hook)).toBeGreaterThan(hook);
    // A send and an inbound decrypt under different keys each advance the contact's Signal session from their own
    // copy and the later commit overwrites the other (tests/e2e/baileys-messages.test.ts, texts both ways).
    expect(receiving).toContain('const txKey = authState.creds.me.id;');
    expect(sending).toMatch(/const meId = assertMeId\(authState\.creds\);[\s\S]*?\}, meId\);/);
  });
});
