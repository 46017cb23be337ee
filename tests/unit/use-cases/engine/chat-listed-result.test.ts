/**
 * A listed row's answer to a caller limited to chats (shared/use-cases/engine/chat-listed-result.ts): filtered to
 * its chats, a paged list read whole from the start and the caller's page cut from what remains.
 */
import { describe, expect, it } from '@jest/globals';
import { type Caller, SYSTEM_CALLER } from '#shared/domain/caller.js';
import { ENGINE_OPERATIONS } from '#shared/domain/engine-operations/engine-operations.js';
import { chatListedResult } from '#shared/use-cases/engine/chat-listed-result.js';

const limitedTo = (allowedChats: string[] | null): Caller => ({
  ...SYSTEM_CALLER,
  key: { id: 'k', name: 'k', role: 'viewer', allowedSessions: null, allowedChats },
});
const contact = (n: number) => ({ id: `${15550000000 + n}@c.us` });
/** An engine list of 2,500 contacts, paged as the engine pages it; records every page asked for. */
function engineList() {
  const all = Array.from({ length: 2500 }, (_, n) => contact(n));
  const asked: unknown[] = [];
  const fetch = async (input: unknown) => {
    asked.push(input);
    const { limit, offset } = input as { limit: number; offset: number };
    return all.slice(offset, offset + limit);
  };
  return { asked, fetch };
}

describe('chatListedResult', () => {
  const list = ENGINE_OPERATIONS['contacts.list'];

  it('answers an unlimited caller exactly the page it asked for, in one call', async () => {
    const { asked, fetch } = engineList();
    const page = await chatListedResult(list, limitedTo(null), { limit: 2, offset: 5 }, fetch);
    expect(page).toEqual([contact(5), contact(6)]);
    expect(asked).toEqual([{ limit: 2, offset: 5 }]);
  });

  it('reads a paged list whole for a limited caller and cuts its page from its chats alone', async () => {
    const { asked, fetch } = engineList();
    const caller = limitedTo([contact(2400).id, contact(3).id, contact(1500).id, '15559999999@c.us']);
    expect(await chatListedResult(list, caller, { limit: 2, offset: 0 }, fetch)).toEqual([
      contact(3),
      contact(1500),
    ]);
    expect(await chatListedResult(list, caller, { limit: 2, offset: 2 }, fetch)).toEqual([contact(2400)]);
    expect(asked.slice(0, 3)).toEqual([
      { limit: 1000, offset: 0 },
      { limit: 1000, offset: 1000 },
      { limit: 1000, offset: 2000 },
    ]);
  });

  it('filters an unpaged list (the blocked contacts) and leaves rows that address chats alone', async () => {
    const blocked = ENGINE_OPERATIONS['contacts.blocked'];
    const fetch = async () => ['15550000001@c.us', '15550000002@c.us'];
    expect(await chatListedResult(blocked, limitedTo(['15550000002@c.us']), {}, fetch)).toEqual([
      '15550000002@c.us',
    ]);
    const get = ENGINE_OPERATIONS['contacts.get'];
    const answer = { id: '15550000009@c.us' };
    expect(await chatListedResult(get, limitedTo(['15550000002@c.us']), {}, async () => answer)).toBe(answer);
  });
});
