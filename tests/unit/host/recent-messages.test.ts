/**
 * The Baileys engine's message store (what a recipient's retry request is answered from): capped at
 * BAILEYS_MESSAGE_STORE_LIMIT messages per session, the oldest going first, one session's sends never evicting
 * another's, and dropped with its session.
 */
import { describe, expect, it } from '@jest/globals';
import { RecentMessages } from '#host/engines/baileys/recent-messages.js';
import { loadEnv } from '#shared/config/env.js';

const text = (conversation: string) => ({ conversation });

describe('RecentMessages', () => {
  it('keeps the newest `limit` messages of each session', () => {
    const store = new RecentMessages(3);
    for (let i = 1; i <= 5; i++) store.remember('s1', `m${i}`, text(`hello ${i}`));
    store.remember('s2', 'm1', text('other session'));
    expect(['m1', 'm2', 'm3', 'm4', 'm5'].map((id) => store.get('s1', id)?.conversation)).toEqual([
      undefined,
      undefined,
      'hello 3',
      'hello 4',
      'hello 5',
    ]);
    expect(store.get('s2', 'm1')).toEqual(text('other session'));
  });

  it('forgets a session whole', () => {
    const store = new RecentMessages(3);
    store.remember('s1', 'm1', text('a'));
    store.remember('s2', 'm1', text('b'));
    store.forget('s1');
    expect(store.get('s1', 'm1')).toBeUndefined();
    expect(store.get('s2', 'm1')).toEqual(text('b'));
  });

  it('takes its cap from BAILEYS_MESSAGE_STORE_LIMIT, 5000 unless a positive number is set', () => {
    const cap = (value: string | undefined) =>
      loadEnv(value === undefined ? {} : { BAILEYS_MESSAGE_STORE_LIMIT: value }).BAILEYS_MESSAGE_STORE_LIMIT;
    expect([cap(undefined), cap('12'), cap('0'), cap('-4'), cap(''), cap('many')]).toEqual([
      5000, 12, 5000, 5000, 5000, 5000,
    ]);
  });
});
