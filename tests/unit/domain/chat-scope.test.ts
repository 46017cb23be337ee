/**
 * Chat allowlists (shared/domain/chat-scope.ts): what a key's list takes and how it is stored, and how a caller's
 * list decides which chats it may address and which items of a list it sees.
 */
import { describe, expect, it } from '@jest/globals';
import { type Caller, SYSTEM_CALLER } from '#shared/domain/caller.js';
import {
  ChatIdList,
  callerChatScope,
  callerMayAddressChat,
  filterToCallerChats,
} from '#shared/domain/chat-scope.js';

const limitedTo = (allowedChats: string[] | null): Caller => ({
  ...SYSTEM_CALLER,
  key: { id: 'k', name: 'k', role: 'operator', allowedSessions: null, allowedChats },
});

describe('ChatIdList', () => {
  it('takes the neutral ids and bare phone numbers, storing a phone as <number>@c.us', () => {
    expect(
      ChatIdList.parse(['+15550001111', '15550002222', '880001@lid', '120363025246125411@g.us']),
    ).toEqual(['15550001111@c.us', '15550002222@c.us', '880001@lid', '120363025246125411@g.us']);
    expect(ChatIdList.parse(['1203630252-1611111111@g.us'])).toEqual(['1203630252-1611111111@g.us']);
  });

  it('refuses other ids, a chat twice once normalized, and more than 100', () => {
    for (const bad of [
      '15550001111@s.whatsapp.net',
      'status@broadcast',
      '1234',
      'abc@c.us',
      ' 15550001111@c.us',
    ])
      expect(ChatIdList.safeParse([bad]).success).toBe(false);
    expect(ChatIdList.safeParse(['15550001111', '15550001111@c.us']).success).toBe(false);
    const many = Array.from({ length: 101 }, (_, i) => `${15550000000 + i}@c.us`);
    expect(ChatIdList.safeParse(many).success).toBe(false);
    expect(ChatIdList.safeParse(many.slice(1)).success).toBe(true);
  });
});

describe('a caller limited to chats', () => {
  it('has no scope when unlimited (no key, null or an empty list)', () => {
    expect(callerChatScope(SYSTEM_CALLER)).toBeUndefined();
    expect(callerChatScope(limitedTo(null))).toBeUndefined();
    expect(callerChatScope(limitedTo([]))).toBeUndefined();
    expect(callerMayAddressChat(limitedTo(null), '1@g.us')).toBe(true);
  });

  it('may address the chats of its list, a bare phone read as <number>@c.us, and no other', () => {
    const caller = limitedTo(['15550001111@c.us', '880001@lid']);
    expect(callerMayAddressChat(caller, '15550001111@c.us')).toBe(true);
    expect(callerMayAddressChat(caller, '+15550001111')).toBe(true);
    expect(callerMayAddressChat(caller, '880001@lid')).toBe(true);
    expect(callerMayAddressChat(caller, '15550002222@c.us')).toBe(false);
    expect(callerMayAddressChat(caller, '880002@lid')).toBe(false);
  });

  it('sees only the items of its chats in a list', () => {
    const items = [{ id: '15550001111@c.us' }, { id: '15550002222@c.us' }, { id: '880001@lid' }];
    expect(
      filterToCallerChats(limitedTo(['880001@lid', '15550001111@c.us']), items, (item) => item.id),
    ).toEqual([items[0], items[2]]);
    expect(filterToCallerChats(limitedTo(null), items, (item) => item.id)).toEqual(items);
  });
});
