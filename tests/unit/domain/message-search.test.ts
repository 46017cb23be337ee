/**
 * What a search query means (shared/domain/message-search.ts): terms split at white space, words of letters and
 * digits folded for case and Latin diacritics, whole words only, and no query syntax surviving into the terms; and
 * the search text the stores without a full-text index compare against.
 */
import { describe, expect, it } from '@jest/globals';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import {
  foldForSearch,
  matchesSearch,
  parseSearchQuery,
  SearchQueryText,
  searchNeedle,
  searchTextOf,
} from '#shared/domain/message-search.js';
import { searchMessages } from '#shared/use-cases/messages/search-messages.js';
import { aSession } from '#tests/helpers/builders.js';

describe('parseSearchQuery', () => {
  it('splits at white space into terms of folded words, a term spanning punctuation keeping its words', () => {
    expect(parseSearchQuery('  Café\tE-Mail  hel* ')).toEqual([
      { words: ['cafe'] },
      { words: ['e', 'mail'] },
      { words: ['hel'] },
    ]);
  });

  it('keeps nothing of FTS5 syntax: quotes, operators, parentheses, column filters become words or vanish', () => {
    expect(parseSearchQuery('"a" OR b* NEAR(c, 2) body:d -e ^f {g} * "')).toEqual([
      { words: ['a'] },
      { words: ['or'] },
      { words: ['b'] },
      { words: ['near', 'c'] },
      { words: ['2'] },
      { words: ['body', 'd'] },
      { words: ['e'] },
      { words: ['f'] },
      { words: ['g'] },
    ]);
    for (const term of parseSearchQuery('"\'*()[]{}:^-+ ; -- /* */ %_ \\')) {
      expect(term.words.join('')).toMatch(/^[\p{L}\p{N}]*$/u);
    }
    expect(parseSearchQuery('*** "" () --')).toEqual([]);
  });
});

describe('foldForSearch and searchTextOf', () => {
  it('drops Latin diacritics, also decomposed ones, and lowercases; other scripts keep their marks', () => {
    expect(foldForSearch('ÉCOLE Ŝe\u0301ance Ångström Việt')).toBe('ecole seance angstrom viet');
    expect(foldForSearch('Йод ΆΝΝΑ')).toBe('йод άννα');
  });

  it('writes the words between single spaces, and nothing for a body without words', () => {
    expect(searchTextOf('  Hello,   WORLD! ')).toBe(' hello world ');
    expect(searchTextOf('😀 !!')).toBe('');
    expect(searchTextOf(null)).toBe('');
  });
});

describe('matchesSearch', () => {
  const matches = (body: string, q: string) => matchesSearch(searchTextOf(body), parseSearchQuery(q));

  it('needs every term as whole words', () => {
    expect(searchNeedle({ words: ['e', 'mail'] })).toBe(' e mail ');
    expect(matches('Hello there, world', 'world hello')).toBe(true);
    expect(matches('Hello there, world', 'hello moon')).toBe(false);
    expect(matches('Hello there', 'hell')).toBe(false);
    expect(matches('Hello there', 'hell*')).toBe(false);
    expect(matches('Hello there', 'ello')).toBe(false);
    expect(matches('send an e-mail', 'e-mail')).toBe(true);
    expect(matches('mail e', 'e-mail')).toBe(false);
  });
});

describe('SearchQueryText', () => {
  it('takes 1–200 characters holding a letter or digit', () => {
    expect(SearchQueryText.safeParse('a').success).toBe(true);
    expect(SearchQueryText.safeParse('x'.repeat(200)).success).toBe(true);
    expect(SearchQueryText.safeParse('x'.repeat(201)).success).toBe(false);
    expect(SearchQueryText.safeParse('').success).toBe(false);
    expect(SearchQueryText.safeParse(' * " ').success).toBe(false);
  });

  it('holds a letter or digit exactly when the query has a term: the pattern the OpenAPI document states', () => {
    // Letters, digits and private-use characters make words; punctuation, symbols, emoji, marks and spaces do not.
    const alphabet = [
      'a',
      'É',
      'ß',
      '中',
      'ж',
      '٣',
      '7',
      '\ue000',
      ' ',
      '-',
      '*',
      '"',
      '🎉',
      '\u0301',
      '…',
      '\u00a0',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 3000; n++) {
      const query = Array.from(
        { length: 1 + (next() % 5) },
        () => alphabet[next() % 3 === 0 ? next() % 7 : 7 + (next() % 9)],
      ).join('');
      expect([query, SearchQueryText.safeParse(query).success]).toEqual([
        query,
        parseSearchQuery(query).length > 0,
      ]);
    }
  });
});

describe('searchMessages', () => {
  it('refuses a query without a letter or digit with VALIDATION_FAILED, even past the route', async () => {
    const data = createMemoryDataStore();
    const session = aSession();
    await data.sessions.create(session);
    await expect(
      searchMessages({ data }, SYSTEM_CALLER, session.id, { q: '*"', limit: 10, offset: 0 }),
    ).rejects.toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });
});
