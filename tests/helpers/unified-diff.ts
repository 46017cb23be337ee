/**
 * The patch files of patches/ (patch-package's unified diffs of files under node_modules/), read so that tests can
 * take a hunk back out of an installed file: the text a file has when that hunk, or its whole patch, is missing.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Hunk {
  /** The `@@ -a,b +c,d @@` line. */
  header: string;
  /** The hunk's lines as the stock file has them (context and removed lines). */
  before: string[];
  /** The same lines as the patched file has them (context and added lines). */
  after: string[];
}

export interface FilePatch {
  /** The patched package, e.g. `@whiskeysockets/baileys`. */
  package: string;
  /** The file inside the package, e.g. `lib/Socket/messages-recv.js`. */
  file: string;
  hunks: Hunk[];
}

/** `node_modules/@scope/name/x/y.js` → package `@scope/name`, file `x/y.js`. */
function splitModulePath(modulePath: string): { package: string; file: string } {
  const parts = modulePath.replace(/^node_modules\//, '').split('/');
  const size = parts[0]?.startsWith('@') ? 2 : 1;
  return { package: parts.slice(0, size).join('/'), file: parts.slice(size).join('/') };
}

/** Parses a patch file's text into its files and hunks (line counts from each hunk's header). */
export function parsePatch(text: string): FilePatch[] {
  const files: FilePatch[] = [];
  const lines = text.split('\n');
  let current: FilePatch | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('+++ b/')) {
      current = { ...splitModulePath(line.slice('+++ b/'.length)), hunks: [] };
      files.push(current);
      continue;
    }
    const counts = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (!counts || !current) continue;
    const hunk: Hunk = { header: line, before: [], after: [] };
    let oldLeft = Number(counts[1] ?? 1);
    let newLeft = Number(counts[2] ?? 1);
    while (oldLeft > 0 || newLeft > 0) {
      i++;
      const body = lines[i];
      if (body === undefined) throw new Error(`patch ends inside the hunk ${hunk.header}`);
      if (body.startsWith('\\')) continue; // "\ No newline at end of file"
      const mark = body[0] ?? ' ';
      const content = body.slice(1);
      if (mark !== '+') {
        hunk.before.push(content);
        oldLeft--;
      }
      if (mark !== '-') {
        hunk.after.push(content);
        newLeft--;
      }
    }
    current.hunks.push(hunk);
  }
  return files;
}

/** The patch files of patches/, by their path from the repository's root (`patches/…`). */
export function repositoryPatches(): Map<string, FilePatch[]> {
  const folder = path.join(ROOT, 'patches');
  return new Map(
    fs
      .readdirSync(folder)
      .filter((name) => name.endsWith('.patch'))
      .sort()
      .map((name) => [`patches/${name}`, parsePatch(fs.readFileSync(path.join(folder, name), 'utf8'))]),
  );
}

/** `text` (a patched file) with `hunks` taken out again; each hunk's patched lines must occur exactly once. */
export function withoutHunks(text: string, hunks: readonly Hunk[]): string {
  let result = text;
  for (const hunk of hunks) {
    const after = hunk.after.join('\n');
    const at = result.indexOf(after);
    if (at < 0 || result.indexOf(after, at + 1) >= 0) {
      throw new Error(`the patched lines of ${hunk.header} occur ${at < 0 ? 'nowhere' : 'twice'}`);
    }
    result = result.slice(0, at) + hunk.before.join('\n') + result.slice(at + after.length);
  }
  return result;
}
