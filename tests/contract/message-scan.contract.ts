/**
 * Behaviour every MessageStore adapter must show for the data export's whole-store scan: every message of every
 * session exactly once, with every field as stored, in pages of at most `limit`, ending with a null cursor; a page
 * is bounded by `limit` however many rows the store holds.
 */
import type { Message } from '#shared/domain/message.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import { aMessage, aSession } from '#tests/helpers/builders.js';
import type { OpenedMessageStore } from './message-store.contract.js';

/** Every message a scan with pages of `limit` answers, and the largest page it saw. */
async function scanAll(
  store: MessageStore,
  limit: number,
): Promise<{ messages: Message[]; largest: number }> {
  const messages: Message[] = [];
  let largest = 0;
  let after: string | null = null;
  for (let pages = 0; pages < 1000; pages += 1) {
    const page = await store.scan(after, limit);
    messages.push(...page.messages);
    largest = Math.max(largest, page.messages.length);
    if (page.next === null) return { messages, largest };
    after = page.next;
  }
  throw new Error('the scan did not end within 1000 pages');
}

const byId = (a: Message, b: Message) => a.id.localeCompare(b.id);

export function messageScanContract(name: string, open: () => Promise<OpenedMessageStore>): void {
  describe(`MessageStore scan contract: ${name}`, () => {
    let opened: OpenedMessageStore;
    let sessions: string[];

    beforeEach(async () => {
      opened = await open();
      const created = [aSession(), aSession()];
      for (const session of created) await opened.sessions.create(session);
      sessions = created.map((session) => session.id);
    });
    afterEach(() => opened.close());

    it('answers nothing for a store without messages, and ends', async () => {
      expect((await scanAll(opened.store, 5)).messages).toEqual([]);
    });

    it('answers every message of every session once, every field intact, in pages of at most the limit', async () => {
      const stored: Message[] = [];
      for (let i = 0; i < 11; i += 1) {
        const message = aMessage({
          sessionId: sessions[i % 2] as string,
          body: `scan ${i}`,
          metadata: i === 3 ? { quoted: { id: 'q1' } } : null,
          timestamp: i === 4 ? null : 1_700_000_000 + i,
        });
        await opened.store.insert(message);
        stored.push(message);
      }
      for (const limit of [1, 3, 50]) {
        const { messages, largest } = await scanAll(opened.store, limit);
        expect(largest).toBeLessThanOrEqual(limit);
        expect([...messages].sort(byId)).toEqual([...stored].sort(byId));
      }
    });

    it('still ends, without repeating a row, when rows are deleted between pages', async () => {
      for (let i = 0; i < 6; i += 1)
        await opened.store.insert(aMessage({ sessionId: sessions[0] as string, body: `d ${i}` }));
      await opened.store.insert(aMessage({ sessionId: sessions[1] as string, body: 'kept' }));
      const first = await opened.store.scan(null, 2);
      await opened.store.deleteBySession(sessions[0] as string);
      const rest: Message[] = [];
      let after = first.next;
      for (let pages = 0; after !== null && pages < 100; pages += 1) {
        const page = await opened.store.scan(after, 2);
        rest.push(...page.messages);
        after = page.next;
      }
      expect(after).toBeNull();
      const seen = [...first.messages, ...rest].map((message) => message.id);
      expect(new Set(seen).size).toBe(seen.length);
    });
  });
}
