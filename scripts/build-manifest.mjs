// What the last build of dist/ was made from, so that `npm start` (and every script that runs scripts/build.mjs)
// skips a build when nothing changed since it. Plain Node only: it runs before esbuild is loaded, in the gateway's
// own process for `npm start` (scripts/start.mjs).
//
// dist/.build-manifest.json records the build's inputs (every file esbuild read, from its metafile, and the files
// that steer it: package.json, tsconfig.json, the build scripts, esbuild's version), each with its size, mtime and
// SHA-256; a listing of every folder holding a source (a file added beside them could change what an import
// resolves to); the outputs with their sizes and mtimes; and the Node version (the bundle's shims of Node's builtins
// are made from that Node's exports: build-plugins.mjs). The build is current when all of these are as recorded; an input whose mtime moved but
// whose content did not (a checkout, `touch`) still counts as unchanged, and the manifest takes its new mtime.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
const MANIFEST = 'dist/.build-manifest.json';
const FORMAT = 1;
/** Inputs besides what esbuild's metafile lists: what decides how the sources are built. */
export const BUILD_CONFIG_FILES = [
  'package.json',
  'tsconfig.json',
  'scripts/build.mjs',
  'scripts/build-manifest.mjs',
  'scripts/build-plugins.mjs',
  'scripts/lambda-esbuild-plugins.mjs',
  'node_modules/esbuild/package.json',
];

// node:crypto only when a file's mtime moved: the usual check (nothing changed) hashes nothing.
const sha256 = (file) =>
  process.getBuiltinModule('node:crypto').createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const listing = (dir) => fs.readdirSync(dir).sort().join('/');

function readManifest(root) {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, MANIFEST), 'utf8'));
    return manifest?.format === FORMAT ? manifest : null;
  } catch {
    return null;
  }
}

/** True when dist/ was built by this Node from exactly the files there are now: no build is needed. */
export function buildIsCurrent(root = ROOT) {
  const manifest = readManifest(root);
  if (manifest === null || manifest.node !== process.version) return false;
  try {
    for (const [file, recorded] of Object.entries(manifest.outputs)) {
      const stat = fs.statSync(path.join(root, file));
      if (stat.size !== recorded.size || stat.mtimeMs !== recorded.mtimeMs) return false;
    }
    for (const [dir, recorded] of Object.entries(manifest.dirs)) {
      if (listing(path.join(root, dir)) !== recorded) return false;
    }
    let touched = false;
    for (const [file, recorded] of Object.entries(manifest.inputs)) {
      const absolute = path.join(root, file);
      const stat = fs.statSync(absolute);
      if (stat.size !== recorded.size) return false;
      if (stat.mtimeMs === recorded.mtimeMs) continue;
      if (sha256(absolute) !== recorded.sha256) return false;
      recorded.mtimeMs = stat.mtimeMs;
      touched = true;
    }
    if (touched) writeJson(root, manifest);
    return true;
  } catch {
    // A file or folder gone: build again.
    return false;
  }
}

/** Removes the manifest before a build, so a build that fails or is interrupted is never taken for current. */
export function forgetBuild(root = ROOT) {
  const previous = readManifest(root);
  fs.rmSync(path.join(root, MANIFEST), { force: true });
  return previous;
}

/**
 * Records the build esbuild just made from its metafiles, and removes the outputs of the previous build that this one
 * no longer writes (chunks whose hash changed), so dist/ holds one build.
 */
export function recordBuild(metafiles, previous, root = ROOT) {
  const sources = new Set();
  const outputs = new Set();
  for (const metafile of metafiles) {
    // Inputs of a plugin's namespace (`node-http-cjs:node:http`) are not files.
    for (const input of Object.keys(metafile.inputs)) if (!/^[\w-]+:/.test(input)) sources.add(input);
    for (const output of Object.keys(metafile.outputs)) outputs.add(output);
  }
  const inputs = new Set([...BUILD_CONFIG_FILES, ...sources]);
  // The folders of our sources, where a new file could change what an import resolves to (not the repository's
  // root, where a start creates data/, nor node_modules, whose files are inputs themselves where bundled).
  const dirs = [...sources]
    .filter((file) => !file.startsWith('node_modules/'))
    .map((file) => path.dirname(file));
  for (const stale of Object.keys(previous?.outputs ?? {})) {
    if (!outputs.has(stale)) fs.rmSync(path.join(root, stale), { force: true });
  }
  const stat = (file) => fs.statSync(path.join(root, file));
  const manifest = {
    format: FORMAT,
    node: process.version,
    inputs: Object.fromEntries(
      [...inputs].sort().map((file) => {
        const { size, mtimeMs } = stat(file);
        return [file, { size, mtimeMs, sha256: sha256(path.join(root, file)) }];
      }),
    ),
    dirs: Object.fromEntries([...new Set(dirs)].sort().map((dir) => [dir, listing(path.join(root, dir))])),
    outputs: Object.fromEntries(
      [...outputs].sort().map((file) => {
        const { size, mtimeMs } = stat(file);
        return [file, { size, mtimeMs }];
      }),
    ),
  };
  writeJson(root, manifest);
}

function writeJson(root, manifest) {
  const file = path.join(root, MANIFEST);
  // Written whole, then renamed: a reader never sees half a manifest.
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(manifest, null, 1)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}
