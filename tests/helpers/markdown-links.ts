/**
 * Relative links of Markdown files, and whether each points at something that exists: the file or folder (resolved
 * from the linking file's folder) and, for a `#anchor` into a Markdown file, a heading of that file as GitHub slugs
 * it, or an explicit `<a id="…">`/`<a name="…">` anchor (GitHub keeps those, and the docs use them for paragraphs
 * without a heading). Links in fenced code blocks and inline code spans are not links; http(s): and mailto: (any
 * URL scheme) are outside the repository and not checked.
 */
import fs from 'node:fs';
import path from 'node:path';

/** One relative link as written, with the 1-based line it is on. */
export interface MarkdownLink {
  line: number;
  target: string;
}

/** The lines of a Markdown text outside fenced code blocks (``` or ~~~), with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, index) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === null && opener?.[1]) fence = opener[1];
    else if (fence !== null && opener?.[1]?.startsWith(fence[0] ?? '') && opener[1].length >= fence.length)
      fence = null;
    else if (fence === null) out.push({ line: index + 1, text });
  });
  return out;
}

/**
 * GitHub's heading slug: lower-cased; every character but letters, digits, spaces, hyphens and underscores dropped;
 * spaces become hyphens. Inline code backticks and emphasis marks go with the other punctuation.
 */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown text offers: its ATX headings' slugs (repeats get -1, -2, …) and explicit anchor ids. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (heading) {
      const base = slug(heading[1] ?? '');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const explicit of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(explicit[1] ?? '');
  }
  return found;
}

/** The relative link targets of a Markdown text: inline links and images, and reference definitions. */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/(`+)[\s\S]*?\1/g, '');
    const targets = [
      ...[...prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]*)/g)].map((match) => match[1] ?? ''),
      ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/g)].map((match) => match[1] ?? ''),
    ];
    for (const raw of targets) {
      const target = raw.replace(/^<|>$/g, '');
      if (target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ line, target });
    }
  }
  return links;
}

/** `file:line: target (why)` for every relative link of `file` (a path under `root`) that points at nothing. */
export function brokenLinks(root: string, file: string): string[] {
  const source = path.join(root, file);
  const markdown = fs.readFileSync(source, 'utf8');
  const broken: string[] = [];
  for (const { line, target } of relativeLinks(markdown)) {
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const resolved = pathPart === '' ? source : path.resolve(path.dirname(source), pathPart);
    const where = `${file}:${line}: ${target}`;
    if (!resolved.startsWith(root + path.sep) || !fs.existsSync(resolved)) {
      broken.push(`${where} (no such file or folder)`);
    } else if (
      anchor !== null &&
      resolved.endsWith('.md') &&
      !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)
    ) {
      broken.push(`${where} (no heading or anchor "${anchor}" in ${path.relative(root, resolved)})`);
    }
  }
  return broken;
}
