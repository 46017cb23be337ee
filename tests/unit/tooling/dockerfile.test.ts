/**
 * The host image is built from the same sources as `npm start` (Docker is not on the development machines or CI, so
 * this is what stands in for a build): every source folder scripts/build.mjs bundles from is copied into the build
 * stage and let through .dockerignore, and the image runs the aws host's entry point that the build produces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
/** The folders of our own TypeScript sources (tsconfig's include, minus tests and scripts). */
const SOURCES = ['functions', 'host', 'embedded', 'shared'];

describe('the host image', () => {
  it('copies every source folder into the build stage and .dockerignore lets each through', () => {
    const dockerfile = read('Dockerfile');
    const ignore = read('.dockerignore').split('\n');
    for (const folder of SOURCES) {
      expect(dockerfile).toContain(`\nCOPY ${folder} ./${folder}\n`);
      expect(ignore).toContain(`!${folder}/`);
    }
  });

  it('covers every folder tsconfig.json compiles besides tests and scripts', () => {
    const { include } = JSON.parse(read('tsconfig.json')) as { include: string[] };
    expect(include.filter((folder) => !['tests', 'scripts'].includes(folder)).sort()).toEqual(
      [...SOURCES].sort(),
    );
  });

  it('runs the host entry point that scripts/build.mjs bundles', () => {
    expect(read('scripts/build.mjs')).toContain("'host/main.ts'");
    expect(read('Dockerfile')).toMatch(/CMD .*dist\/host\/main\.js/);
  });
});
