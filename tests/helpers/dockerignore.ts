/**
 * The build context as `docker build` sends it: the files of the context folder that .dockerignore leaves in.
 * Follows Docker's matcher (moby/patternmatcher, as the docs describe .dockerignore): a line starting with `#` is a
 * comment; each pattern is trimmed and cleaned like a path (`dir/` is `dir`, a leading `/` dropped); `*` and `?`
 * stay within one path segment, `**` spans any number of segments (none included); a pattern that matches a
 * folder matches everything in it; the patterns apply in order, `!` admits again what an earlier pattern left out,
 * and the last pattern that matches a path decides.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface IgnorePattern {
  /** The cleaned pattern, without its `!`. */
  text: string;
  /** A `!` pattern: admits what it matches. */
  exception: boolean;
  matches(file: string): boolean;
}

/** Go's filepath.Clean for the slash-separated patterns of a .dockerignore. */
function clean(pattern: string): string {
  const normalized = path.posix.normalize(pattern);
  return normalized === '/' ? '/' : normalized.replace(/\/+$/, '') || '.';
}

/** Docker's translation of a pattern: exact, prefix (`a**`), suffix (`**a`) or a regular expression. */
function compile(text: string): (file: string) => boolean {
  let regex = '^';
  let kind: 'exact' | 'prefix' | 'suffix' | 'regexp' = 'exact';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const first = i === 0;
    if (ch === '*' && text[i + 1] === '*') {
      i++;
      if (text[i + 1] === '/') i++; // `**/` is `**`
      if (i + 1 >= text.length) {
        if (kind === 'exact') kind = 'prefix';
        else {
          regex += '.*';
          kind = 'regexp';
        }
      } else {
        regex += '(.*/)?';
        kind = 'regexp';
      }
      if (first) kind = 'suffix';
    } else if (ch === '*') {
      regex += '[^/]*';
      kind = 'regexp';
    } else if (ch === '?') {
      regex += '[^/]';
      kind = 'regexp';
    } else if ('.+()|{}$'.includes(ch)) {
      regex += `\\${ch}`;
    } else if (ch === '\\') {
      if (i + 1 < text.length) {
        i++;
        regex += `\\${text[i]}`;
        kind = 'regexp';
      } else regex += '\\\\';
    } else if (ch === '[' || ch === ']') {
      regex += ch;
      kind = 'regexp';
    } else {
      regex += ch;
    }
  }
  switch (kind) {
    case 'exact':
      return (file) => file === text;
    case 'prefix':
      return (file) => file.startsWith(text.slice(0, -2));
    case 'suffix': {
      const suffix = text.slice(2);
      return (file) => file.endsWith(suffix) || (suffix.startsWith('/') && file === suffix.slice(1));
    }
    case 'regexp': {
      const compiled = new RegExp(`${regex}$`, 's');
      return (file) => compiled.test(file);
    }
  }
}

/** The patterns of a .dockerignore's text, in order. */
export function parseDockerignore(content: string): IgnorePattern[] {
  const patterns: IgnorePattern[] = [];
  for (const line of content.split('\n')) {
    if (line.startsWith('#')) continue;
    let pattern = line.trim();
    if (pattern === '') continue;
    const exception = pattern.startsWith('!');
    if (exception) pattern = pattern.slice(1).trim();
    if (pattern === '') throw new Error('a .dockerignore pattern "!" admits nothing');
    pattern = clean(pattern);
    if (pattern.length > 1 && pattern.startsWith('/')) pattern = pattern.slice(1);
    patterns.push({ text: pattern, exception, matches: compile(pattern) });
  }
  return patterns;
}

/** Whether the context keeps `file` (slash-separated, relative to the context): the last matching pattern decides. */
export function isAdmitted(patterns: readonly IgnorePattern[], file: string): boolean {
  const parents = path.posix.dirname(file) === '.' ? [] : path.posix.dirname(file).split('/');
  let excluded = false;
  for (const pattern of patterns) {
    // Docker skips a pattern that cannot change the outcome so far.
    if (pattern.exception !== excluded) continue;
    const match =
      pattern.matches(file) || parents.some((_, i) => pattern.matches(parents.slice(0, i + 1).join('/')));
    if (match) excluded = !pattern.exception;
  }
  return !excluded;
}

/**
 * The files (slash-separated paths) of the context folder `root` that `patterns` admit. A folder left out is not
 * walked unless an exception could admit something inside it, as Docker's walker does (node_modules/ stays unread).
 */
export function contextFiles(root: string, patterns: readonly IgnorePattern[]): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const file = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const admitted = isAdmitted(patterns, file);
      if (entry.isDirectory()) {
        const reopened = patterns.some(
          (p) => p.exception && (`${p.text}/`.startsWith(`${file}/`) || /^[*?[\\]/.test(p.text)),
        );
        if (admitted || reopened) walk(file);
      } else if (admitted) {
        files.push(file);
      }
    }
  };
  walk('');
  return files.sort();
}
