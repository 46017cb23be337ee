/**
 * The README is the front door and docs/ holds the rest: every relative link in README.md and docs/**.md points at a
 * file or folder that exists and, with a #anchor into a Markdown file, at a heading (GitHub's slug) or explicit
 * anchor there; every docs page is linked from the README. The checker itself is tried on texts with known faults,
 * so a link check that finds nothing cannot pass for one that looks at nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { anchors, brokenLinks, relativeLinks, slug } from '#tests/helpers/markdown-links.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** README.md and every Markdown file under docs/, relative to the repository root. */
function documentation(): string[] {
  const pages = fs
    .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file))
    .sort();
  return ['README.md', ...pages];
}

describe('documentation links', () => {
  it('point at files, folders and anchors that exist, in the README and every docs page', () => {
    const files = documentation();
    expect(files.length).toBeGreaterThan(5);
    expect(
      files.flatMap((file) => relativeLinks(fs.readFileSync(path.join(ROOT, file), 'utf8'))).length,
    ).toBeGreaterThan(30);
    expect(files.flatMap((file) => brokenLinks(ROOT, file))).toEqual([]);
  });

  it('reach every docs page from the README', () => {
    const linked = new Set(
      relativeLinks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).map(({ target }) =>
        path.normalize(target.split('#')[0] ?? ''),
      ),
    );
    expect(documentation().filter((file) => file !== 'README.md' && !linked.has(file))).toEqual([]);
  });
});

describe('the link checker', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-links-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };

  it('slugs headings as GitHub does, numbering repeats, and counts explicit anchors', () => {
    expect(slug('The API in a thread of its own (API_THREAD)')).toBe(
      'the-api-in-a-thread-of-its-own-api_thread',
    );
    expect(slug('On this machine, without Docker: `npm run offline`')).toBe(
      'on-this-machine-without-docker-npm-run-offline',
    );
    expect(slug('Locked out?')).toBe('locked-out');
    const found = anchors(
      '# Notes\n## Notes\n## Notes\n```\n# not a heading\n```\n<a id="para"></a>**Para.**\n',
    );
    expect([...found].sort()).toEqual(['notes', 'notes-1', 'notes-2', 'para']);
  });

  it('reports a missing file, a missing anchor and a missing folder, and nothing else', () => {
    write('docs/guide.md', '# Guide\n\n## Setting up\n');
    write(
      'README.md',
      [
        '# Title',
        '[ok](docs/guide.md) [ok](docs/guide.md#setting-up) [ok](#title) [ok](docs/) [web](https://example.com/x.md)',
        '[gone](docs/missing.md) [bad anchor](docs/guide.md#setup) [here](#nowhere) [folder](nowhere/)',
        '`[code span](docs/missing.md)` [mail](mailto:a@b.c)',
        '```',
        '[fenced](docs/missing.md)',
        '```',
        '[ref]: docs/also-missing.md',
      ].join('\n'),
    );
    expect(brokenLinks(dir, 'README.md')).toEqual([
      'README.md:3: docs/missing.md (no such file or folder)',
      'README.md:3: docs/guide.md#setup (no heading or anchor "setup" in docs/guide.md)',
      'README.md:3: #nowhere (no heading or anchor "nowhere" in README.md)',
      'README.md:3: nowhere/ (no such file or folder)',
      'README.md:8: docs/also-missing.md (no such file or folder)',
    ]);
  });

  it('resolves a link from the folder of the page that holds it', () => {
    write('docs/a.md', '# A\n[up](../README.md) [sibling](guide.md#guide) [wrong](README.md)\n');
    expect(brokenLinks(dir, 'docs/a.md')).toEqual(['docs/a.md:2: README.md (no such file or folder)']);
  });
});
