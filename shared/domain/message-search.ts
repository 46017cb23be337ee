/**
 * Full-text search over stored message bodies: what a query means, the same in every store. A query is split at
 * white space into terms, and a message matches when its body holds every term (AND, in any order) as whole words; a
 * term spanning punctuation (`e-mail`) matches its words next to each other, in that order. Text is compared folded:
 * lowercase, and Latin letters without their diacritics (`cafe` finds `Café`, `zurich` finds `Zürich`; letters that
 * are not a base letter plus marks, such as `ł` or `ø`, stay as they are). Words are runs of letters and digits,
 * split as SQLite's unicode61 tokenizer splits them (the embedded store's index), so scripts written without spaces
 * between words (Chinese, Japanese, Thai) match whole runs of text only.
 *
 * There is no prefix or substring matching: FTS5 answers a prefix query by reading every posting of every word it
 * expands to, whatever the page, so its cost grows with the history (about 10 ms of CPU at 100,000 messages for the
 * beginning of a common word, where a whole word took about 1 ms); a whole-word search stops after the matches it
 * counts.
 *
 * Nothing of the query reaches a store as syntax: the stores get terms made of letters and digits only, so quotes,
 * `*`, `OR`, `NEAR(` and the like are plain words (or separators) and never a query-language error.
 */
import { z } from 'zod';

/** Longest query text accepted. */
export const SEARCH_QUERY_MAX_LENGTH = 200;

/** A search counts at most this many matches; a page past them is empty and the answer says `truncated`. */
export const SEARCH_MAX_MATCHES = 1000;

/** One term of a query: words that must appear together, in this order. */
export interface SearchTerm {
  words: readonly string[];
}

/** Latin letters (in decomposed form) followed by their combining diacritics, which folding drops. */
const LATIN_DIACRITICS = /([A-Za-z])[\u0300-\u036f]+/g;
const NOT_WORD = /[^\p{L}\p{N}\p{Co}]+/u;

/** Text as search compares it: Latin diacritics removed, lowercase. Other scripts keep their marks. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(LATIN_DIACRITICS, '$1').normalize('NFC').toLowerCase();
}

/** The folded words of `text`. */
export function wordsOf(text: string): string[] {
  return foldForSearch(text)
    .split(NOT_WORD)
    .filter((word) => word !== '');
}

/** The terms of a query text; empty when it holds no letter or digit. */
export function parseSearchQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const part of query.split(/\s+/u)) {
    const words = wordsOf(part);
    if (words.length > 0) terms.push({ words });
  }
  return terms;
}

/**
 * A character that makes a word (NOT_WORD's complement): a query holds a term exactly when it holds one of these
 * (folding keeps letters letters), which a test holds to parseSearchQuery on random text.
 */
const WORD_CHARACTER = /[\p{L}\p{N}\p{Co}]/u;

/**
 * The `q` of a search route: 1–200 characters with at least one letter or digit, stated as a pattern so the OpenAPI
 * document says it too (JSON Schema patterns are read with Unicode property escapes, as the `u` flag reads them).
 */
export const SearchQueryText = z
  .string()
  .min(1)
  .max(SEARCH_QUERY_MAX_LENGTH)
  .regex(WORD_CHARACTER, 'must contain at least one letter or digit');

/**
 * A body as the stores without a full-text index compare it: its folded words, each with a space on both sides
 * (' hello world '), or '' for no words. A term then matches where its needle occurs (see searchNeedle).
 */
export function searchTextOf(body: string | null): string {
  const words = body === null ? [] : wordsOf(body);
  return words.length === 0 ? '' : ` ${words.join(' ')} `;
}

/** What a term looks for in a search text: its words between spaces (' e mail '), so only whole words match. */
export function searchNeedle(term: SearchTerm): string {
  return ` ${term.words.join(' ')} `;
}

/** True when the search text (searchTextOf) holds every term. */
export function matchesSearch(searchText: string, terms: readonly SearchTerm[]): boolean {
  return terms.every((term) => searchText.includes(searchNeedle(term)));
}
