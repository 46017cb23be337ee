/**
 * Behaviour every MessageStore adapter must show when it reads many rows. Full-text search: every term must match as
 * whole words, folded for case and Latin diacritics, in any script; results are newest first, within one session
 * (and chat), counted up to `maxMatches`; edits, revokes and session deletes show at once. Messages are stored in
 * time order here, where the stores' orders (stored order, history order) agree. History by sender: direct and group
 * messages (the sender as `author`) in one order and one total.
 */
import type { Message } from '#shared/domain/message.js';
import { parseSearchQuery } from '#shared/domain/message-search.js';
import type { MessageSearchPage, MessageStore } from '#shared/ports/message-store.port.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';
import type { OpenedMessageStore } from './message-store.contract.js';

const ALICE = '4915111111111@c.us';
const BOB = '4915122222222@c.us';
const ALL = { limit: 1000, offset: 0 };

export function messageReadsContract(name: string, open: () => Promise<OpenedMessageStore>): void {
  describe(`MessageStore reads contract: ${name}`, () => {
    let store: MessageStore;
    let close: () => Promise<void>;
    let s1: string;
    let s2: string;
    let clock = 0;

    beforeEach(async () => {
      const opened = await open();
      ({ store, close } = opened);
      const created = async (session = aSession()) => {
        await opened.sessions.create(session);
        return session.id;
      };
      [s1, s2] = [await created(), await created()];
    });
    afterEach(() => close());

    /** Stores texts of `s1` (chat ALICE unless given) in time order; answers them in the same order. */
    async function seed(...bodies: (string | null | Partial<Message>)[]): Promise<Message[]> {
      const messages: Message[] = [];
      for (const body of bodies) {
        clock += 1;
        const fields = typeof body === 'string' || body === null ? { body } : body;
        const message = aMessage({ sessionId: s1, chatId: ALICE, from: ALICE, timestamp: clock, ...fields });
        expect(await store.insert(message)).toBe(true);
        messages.push(message);
      }
      return messages;
    }
    const search = (
      q: string,
      options: { sessionId?: string; chatId?: string; maxMatches?: number; page?: typeof ALL } = {},
    ): Promise<MessageSearchPage> =>
      store.search(
        {
          sessionId: options.sessionId ?? s1,
          ...(options.chatId ? { chatId: options.chatId } : {}),
          terms: parseSearchQuery(q),
          maxMatches: options.maxMatches ?? 1000,
        },
        options.page ?? ALL,
      );
    const found = async (q: string, options: Parameters<typeof search>[1] = {}) =>
      (await search(q, options)).messages.map((message) => message.body);

    describe('search', () => {
      it('finds the messages holding every term, in any order and case, without Latin diacritics, newest first', async () => {
        await seed(
          'Meeting at the Café tomorrow',
          'cafe closed today',
          'nothing here',
          'CAFÉ: meeting moved',
        );
        expect(await found('cafe')).toEqual([
          'CAFÉ: meeting moved',
          'cafe closed today',
          'Meeting at the Café tomorrow',
        ]);
        expect(await found('MEETING café')).toEqual(['CAFÉ: meeting moved', 'Meeting at the Café tomorrow']);
        expect(await found('cafe nowhere')).toEqual([]);
        expect(await search('café')).toMatchObject({ total: 3, truncated: false });
      });

      it('matches whole words only', async () => {
        await seed('hello world', 'Zürich is far', 'shellfish');
        expect(await found('hel')).toEqual([]);
        expect(await found('ello')).toEqual([]);
        expect(await found('hel*')).toEqual([]);
        expect(await found('world* hello')).toEqual(['hello world']);
        expect(await found('zurich')).toEqual(['Zürich is far']);
        expect(await found('shell')).toEqual([]);
      });

      it('matches a term spanning punctuation as its words in that order', async () => {
        await seed('send the e-mail now', 'e mail is fine', 'mail e backwards');
        expect(await found('e-mail')).toEqual(['e mail is fine', 'send the e-mail now']);
        expect(await found('"e.mail"')).toEqual(['e mail is fine', 'send the e-mail now']);
      });

      it('finds words of other scripts; text without spaces matches as a whole run only', async () => {
        await seed('Привет, как дела?', 'Καλημέρα κόσμε', '你好世界', 'नमस्ते दोस्त', 'مرحبا بالعالم');
        expect(await found('ПРИВЕТ')).toEqual(['Привет, как дела?']);
        expect(await found('καλημέρα')).toEqual(['Καλημέρα κόσμε']);
        expect(await found('नमस्ते')).toEqual(['नमस्ते दोस्त']);
        expect(await found('مرحبا')).toEqual(['مرحبا بالعالم']);
        expect(await found('你好世界')).toEqual(['你好世界']);
        expect(await found('你好')).toEqual([]);
        expect(await found('世界')).toEqual([]);
      });

      it('treats query syntax as plain words and never fails on it', async () => {
        await seed('near the station OR later', 'body of text', 'plain words');
        expect(await found('NEAR( station')).toEqual(['near the station OR later']);
        expect(await found('or')).toEqual(['near the station OR later']);
        expect(await found('body: -text ^of')).toEqual(['body of text']);
        expect(await found('"plain" AND {words}')).toEqual([]);
        expect(await found('"plain" {words}')).toEqual(['plain words']);
        expect(await found(`${'x '.repeat(99)}x`)).toEqual([]);
      });

      it('never matches a message without a body', async () => {
        await seed(null, { body: null, type: 'image' });
        expect(await search('null')).toEqual({ messages: [], total: 0, truncated: false });
      });

      it('keeps to the session, and to the chat when one is given', async () => {
        const [direct, other] = await seed('lunch at noon', {
          body: 'lunch with bob',
          chatId: BOB,
          from: BOB,
        });
        await store.insert(aMessage({ sessionId: s2, body: 'lunch elsewhere', timestamp: 99 }));
        expect(await found('lunch')).toEqual([other!.body, direct!.body]);
        expect(await found('lunch', { chatId: ALICE })).toEqual([direct!.body]);
        expect(await found('lunch', { chatId: BOB })).toEqual([other!.body]);
        expect(await found('lunch', { sessionId: s2 })).toEqual(['lunch elsewhere']);
        expect(await found('lunch', { sessionId: '00000000-0000-4000-8000-000000000000' })).toEqual([]);
      });

      it('pages with limit and offset and counts every match in the total', async () => {
        const messages = await seed(...[1, 2, 3, 4, 5].map((n) => `ticket ${n}`), 'other');
        const newestFirst = messages
          .slice(0, 5)
          .reverse()
          .map((message) => message.id);
        const page = async (limit: number, offset: number) => {
          const result = await search('ticket', { page: { limit, offset } });
          return { ids: result.messages.map((message) => message.id), total: result.total };
        };
        expect(await page(2, 0)).toEqual({ ids: newestFirst.slice(0, 2), total: 5 });
        expect(await page(2, 3)).toEqual({ ids: newestFirst.slice(3), total: 5 });
        expect(await page(2, 5)).toEqual({ ids: [], total: 5 });
      });

      it('stops counting after maxMatches and says the answer is truncated', async () => {
        const messages = await seed(...[1, 2, 3, 4, 5].map((n) => `invoice ${n}`));
        const newest = messages.reverse().map((message) => message.body);
        const capped = await search('invoice', { maxMatches: 3 });
        expect(capped.messages.map((message) => message.body)).toEqual(newest.slice(0, 3));
        expect(capped).toMatchObject({ total: 3, truncated: true });
        const past = await search('invoice', { maxMatches: 3, page: { limit: 10, offset: 2 } });
        expect(past.messages.map((message) => message.body)).toEqual(newest.slice(2, 3));
        expect(await search('invoice', { maxMatches: 5 })).toMatchObject({ total: 5, truncated: false });
      });

      it('follows edits and revokes of a body', async () => {
        const [message] = await seed({ body: 'see you at seven', waMessageId: 'EDIT1' });
        const change = { chatId: ALICE, senderId: ALICE, timestamp: 2_000_000_000 };
        await store.applyChange(s1, 'EDIT1', { ...change, kind: 'edit', body: 'see you at eight' });
        expect(await found('seven')).toEqual([]);
        expect((await search('eight')).messages.map((m) => m.id)).toEqual([message!.id]);
        await store.applyChange(s1, 'EDIT1', { ...change, timestamp: change.timestamp + 1, kind: 'revoke' });
        expect(await found('eight')).toEqual([]);
      });

      it('forgets the messages of a deleted session and finds those stored after it', async () => {
        await seed('before the delete');
        await store.deleteBySession(s1);
        expect(await found('delete')).toEqual([]);
        await seed('after the delete');
        expect(await found('delete')).toEqual(['after the delete']);
      });

      it('hands out copies', async () => {
        await seed('copy me');
        const [first] = (await search('copy')).messages;
        first!.body = 'changed';
        expect(await found('copy')).toEqual(['copy me']);
      });
    });

    describe('history by sender', () => {
      const GROUP = '120363025246125486@g.us';
      async function insertAll(...messages: Message[]): Promise<Message[]> {
        for (const message of messages) expect(await store.insert(message)).toBe(true);
        return messages;
      }
      const ids = (messages: Message[]) => messages.map((message) => message.id);

      it('pages a sender filter through direct and group messages in one order, a row matching twice once', async () => {
        const seeded = await insertAll(
          aMessage({ sessionId: s1, chatId: ALICE, from: ALICE, timestamp: 1 }),
          aMessage({ sessionId: s1, chatId: GROUP, from: GROUP, author: ALICE, timestamp: 2 }),
          aMessage({ sessionId: s1, chatId: ALICE, from: ALICE, timestamp: 3 }),
          aMessage({ sessionId: s1, chatId: GROUP, from: GROUP, author: BOB, timestamp: 4 }),
          aMessage({ sessionId: s1, chatId: GROUP, from: GROUP, author: ALICE, timestamp: 5 }),
          aMessage({ sessionId: s1, chatId: ALICE, from: ALICE, author: ALICE, timestamp: 6 }),
        );
        const alice = ids(seeded.filter((m) => m.from === ALICE || m.author === ALICE)).reverse();
        const page = async (limit: number, offset: number) => {
          const result = await store.list({ sessionId: s1, from: ALICE }, { limit, offset });
          return { ids: ids(result.messages), total: result.total };
        };
        expect(await page(1000, 0)).toEqual({ ids: alice, total: 5 });
        expect(await page(2, 1)).toEqual({ ids: alice.slice(1, 3), total: 5 });
        expect(await page(2, 4)).toEqual({ ids: alice.slice(4), total: 5 });
      });
    });
  });
}
