/**
 * When `npm start` may skip the build (scripts/build-manifest.mjs), on a made-up tree whose "build" is recorded
 * from an esbuild-like metafile: current while nothing changed, or only mtimes moved; not current after any change to
 * a source, a file that steers the build (package.json, tsconfig.json, the build scripts, esbuild's version), a new
 * file beside the sources, an output, or the Node that built it. The real build and start: start-path.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  BUILD_CONFIG_FILES,
  buildIsCurrent,
  forgetBuild,
  recordBuild,
} from '../../../scripts/build-manifest.mjs';

const MANIFEST = 'dist/.build-manifest.json';

describe('the build manifest', () => {
  let root: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
  /** Moves a file's mtime without changing its content, as a checkout or `touch` does. */
  const touch = (file: string) => {
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, file), later, later);
  };
  const metafile = (inputs: string[], outputs: string[]) => ({
    inputs: Object.fromEntries(inputs.map((input) => [input, {}])),
    outputs: Object.fromEntries(outputs.map((output) => [output, {}])),
  });
  /** A build of embedded/main.ts (importing shared/a.ts) into dist/main.js, as build.mjs records it. */
  const build = (outputs = ['dist/main.js', 'dist/main.js.map']) => {
    const previous = forgetBuild(root);
    for (const output of outputs) write(output, `built from ${read('embedded/main.ts')}`);
    recordBuild(
      [metafile(['embedded/main.ts', 'shared/a.ts', 'builtin-cjs:node:fs'], outputs)],
      previous,
      root,
    );
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-build-manifest-'));
    for (const file of BUILD_CONFIG_FILES) write(file, `${file} v1\n`);
    write('embedded/main.ts', "import './a.js';\n");
    write('shared/a.ts', 'export const a = 1;\n');
    build();
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is current right after a build, and again after a check', () => {
    expect(buildIsCurrent(root)).toBe(true);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('is not current without a manifest: none yet, or a build that stopped half-way', () => {
    forgetBuild(root);
    expect(fs.existsSync(path.join(root, MANIFEST))).toBe(false);
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('is not current once a source changes, even to text of the same size', () => {
    write('shared/a.ts', 'export const a = 2;\n');
    expect(buildIsCurrent(root)).toBe(false);
    build();
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('is not current once a source is removed', () => {
    fs.rmSync(path.join(root, 'shared/a.ts'));
    expect(buildIsCurrent(root)).toBe(false);
  });

  it.each(BUILD_CONFIG_FILES)('is not current once %s changes', (file) => {
    write(file, `${read(file)}changed\n`);
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('is not current once a file is added beside the sources (an import could now resolve to it)', () => {
    write('shared/a.js', 'export const a = 3;\n');
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('is not current once an output is changed or removed', () => {
    write('dist/main.js', 'edited by hand');
    expect(buildIsCurrent(root)).toBe(false);
    build();
    fs.rmSync(path.join(root, 'dist/main.js.map'));
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('is not current for another Node than the one that built it', () => {
    const manifest = JSON.parse(read(MANIFEST)) as { node: string };
    write(MANIFEST, JSON.stringify({ ...manifest, node: 'v0.0.1' }));
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('stays current when only mtimes moved, and keeps the new mtimes so the next check hashes nothing', () => {
    touch('shared/a.ts');
    touch('package.json');
    expect(buildIsCurrent(root)).toBe(true);
    const manifest = JSON.parse(read(MANIFEST)) as { inputs: Record<string, { mtimeMs: number }> };
    expect(manifest.inputs['shared/a.ts']?.mtimeMs).toBe(fs.statSync(path.join(root, 'shared/a.ts')).mtimeMs);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("removes the previous build's outputs that a new build no longer writes", () => {
    build(['dist/main.js', 'dist/chunk-B.js']);
    expect(fs.existsSync(path.join(root, 'dist/main.js.map'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'dist/chunk-B.js'))).toBe(true);
    expect(buildIsCurrent(root)).toBe(true);
  });
});
