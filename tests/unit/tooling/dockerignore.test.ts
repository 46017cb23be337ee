/**
 * The .dockerignore matcher the image tests resolve the build context with (tests/helpers/dockerignore.ts), against
 * the rules Docker documents and its matcher (moby/patternmatcher) implements.
 */
import { describe, expect, it } from '@jest/globals';
import { isAdmitted, parseDockerignore } from '#tests/helpers/dockerignore.js';

const admits = (ignore: string, file: string) => isAdmitted(parseDockerignore(ignore), file);

describe('the .dockerignore matcher', () => {
  it('leaves out everything after `**`, and `!folder/` admits the folder and all it holds again', () => {
    const ignore = '**\n!patches/\n';
    expect(admits(ignore, 'package.json')).toBe(false);
    expect(admits(ignore, 'node_modules/x/index.js')).toBe(false);
    expect(admits(ignore, 'patches')).toBe(true);
    expect(admits(ignore, 'patches/libsignal+6.0.0.patch')).toBe(true);
    expect(admits(ignore, 'patchesx/a')).toBe(false);
  });

  it('lets the last matching pattern decide', () => {
    expect(admits('**\n!src/\nsrc/secret.txt', 'src/secret.txt')).toBe(false);
    expect(admits('**\n!src/\nsrc/secret.txt', 'src/main.ts')).toBe(true);
    expect(admits('*.md\n!README.md', 'README.md')).toBe(true);
    expect(admits('!README.md\n*.md', 'README.md')).toBe(false);
  });

  it('keeps `*` and `?` within one segment, lets `**` span any number, none included', () => {
    expect(admits('*.md', 'README.md')).toBe(false);
    expect(admits('*.md', 'docs/guide.md')).toBe(true);
    expect(admits('*/*.md', 'docs/guide.md')).toBe(false);
    expect(admits('**/*.log', 'debug.log')).toBe(false);
    expect(admits('**/*.log', 'a/b/debug.log')).toBe(false);
    expect(admits('**/*.log', 'a/b/debug.txt')).toBe(true);
    expect(admits('temp?', 'temp1')).toBe(false);
    expect(admits('temp?', 'temp/1')).toBe(true);
    expect(admits('a/**/z', 'a/z')).toBe(false);
    expect(admits('a/**/z', 'a/b/c/z')).toBe(false);
  });

  it('matches a path from the context root, a folder with its contents, and cleans patterns', () => {
    expect(admits('build', 'src/build')).toBe(true);
    expect(admits('/build/', 'build/out.js')).toBe(false);
    expect(admits('./build', 'build')).toBe(false);
    expect(admits('# build\n', 'build')).toBe(true);
    expect(admits(' build ', 'build')).toBe(false);
    expect(admits('a.b', 'axb')).toBe(true);
  });
});
