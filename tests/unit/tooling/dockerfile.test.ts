/**
 * The host image is built from the same sources as `npm start` (Docker is not on the development machines or CI, so
 * this and tests/image/host-image.test.ts, which replays the build, stand in for one): every path a COPY takes from
 * the build context is in the context .dockerignore leaves, every source folder scripts/build.mjs bundles from is
 * copied, and the image runs the aws host's entry point that the build produces, with production dependencies only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { type Instruction, parseCopy, parseDockerfile } from '#tests/helpers/dockerfile.js';
import { contextFiles, parseDockerignore } from '#tests/helpers/dockerignore.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
/** The folders of our own TypeScript sources (tsconfig's include, minus tests and scripts). */
const SOURCES = ['functions', 'host', 'embedded', 'shared'];

const dockerfile = parseDockerfile(read('Dockerfile'));
const instructions = (keyword: string): Instruction[] =>
  dockerfile.stages.flatMap((stage) => stage.instructions.filter((i) => i.keyword === keyword));
const contextCopies = instructions('COPY')
  .map(parseCopy)
  .filter((copy) => copy.from === null);

describe('the host image', () => {
  it('finds every path a COPY takes from the build context in the context .dockerignore leaves', () => {
    const context = contextFiles(ROOT, parseDockerignore(read('.dockerignore')));
    const sources = contextCopies.flatMap((copy) => copy.sources);
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'patches']));
    const missing = sources.filter(
      (source) => !context.some((file) => file === source || file.startsWith(`${source}/`)),
    );
    expect(missing).toEqual([]);
    // The context stays small: no node_modules, dist or test files travel to the builder.
    expect(context.filter((file) => /^(node_modules|dist|tests|\.git)\//.test(file))).toEqual([]);
  });

  it('copies every source folder into the build', () => {
    const sources = contextCopies.flatMap((copy) => copy.sources);
    expect(sources).toEqual(expect.arrayContaining(SOURCES));
  });

  it('covers every folder tsconfig.json compiles besides tests and scripts', () => {
    const { include } = JSON.parse(read('tsconfig.json')) as { include: string[] };
    expect(include.filter((folder) => !['tests', 'scripts'].includes(folder)).sort()).toEqual(
      [...SOURCES].sort(),
    );
  });

  it('runs the host entry point that scripts/build.mjs bundles', () => {
    expect(read('scripts/build.mjs')).toContain("'host/main.ts'");
    const cmd = dockerfile.stages.at(-1)?.instructions.find((i) => i.keyword === 'CMD');
    expect(cmd?.args).toMatch(/dist\/host\/main\.js/);
  });

  it('ships the node_modules of a production install', () => {
    const runtime = dockerfile.stages.at(-1);
    const modules = runtime?.instructions
      .filter((i) => i.keyword === 'COPY')
      .map(parseCopy)
      .find((copy) => copy.sources.some((source) => source.endsWith('/node_modules')));
    const from = dockerfile.stages.find((stage) => stage.name === modules?.from);
    const installs = from?.instructions.filter(
      (i) => i.keyword === 'RUN' && /\bnpm (install|ci)\b/.test(i.args),
    );
    expect(installs?.map((i) => i.args)).toEqual([expect.stringMatching(/--omit=dev/)]);
  });
});
