/**
 * The chat rules every ChatStore applies (applyChatChange): defaults of a new chat, names kept, last message and
 * activity only forward, unread counts, settings, a clear; and the API's view of a stored chat (chatSummaryOf):
 * kind, pinned, and a mute that holds until its end or forever.
 */
import { describe, expect, it } from '@jest/globals';
import {
  applyChatChange,
  type ChatChange,
  type ChatLastMessage,
  type ChatRecord,
  chatKindOf,
  chatSummaryOf,
  MUTED_FOREVER,
  newChat,
} from '#shared/domain/chat.js';

const A = '15550001111@c.us';
const message = (id: string, timestamp: number): ChatLastMessage => ({
  id,
  fromMe: false,
  author: null,
  type: 'text',
  body: id,
  timestamp,
});
/** The chat after `changes`, applied in order to a new chat. */
const applied = (...changes: Omit<ChatChange, 'id'>[]): ChatRecord =>
  changes.reduce<ChatRecord>((chat, change) => applyChatChange(chat, { id: A, ...change }), newChat(A));

describe('applyChatChange', () => {
  it('leaves a new chat as newChat makes it when the change gives nothing, without changing its input', () => {
    const chat = newChat(A);
    const frozen = structuredClone(chat);
    expect(applyChatChange(chat, { id: A })).toEqual(newChat(A));
    expect(applyChatChange(chat, { id: A, archived: true })).not.toBe(chat);
    expect(chat).toEqual(frozen);
    expect(newChat(A)).toEqual({
      id: A,
      name: null,
      unreadCount: 0,
      markedUnread: false,
      timestamp: null,
      lastMessage: null,
      archived: false,
      pinnedAt: null,
      muteUntil: null,
    });
  });

  it('replaces the name only with one that is not null', () => {
    expect(applied({ name: 'Alice' }, { name: null }, {}).name).toBe('Alice');
    expect(applied({ name: 'Alice' }, { name: 'Bob' }).name).toBe('Bob');
  });

  it('keeps the last message unless the new one is as recent or the same message', () => {
    expect(
      applied({ lastMessage: message('M2', 200) }, { lastMessage: message('M1', 100) }).lastMessage?.id,
    ).toBe('M2');
    expect(
      applied({ lastMessage: message('M1', 100) }, { lastMessage: message('M2', 100) }).lastMessage?.id,
    ).toBe('M2');
    const edited = { ...message('M2', 50), body: 'edited' };
    expect(applied({ lastMessage: message('M2', 200) }, { lastMessage: edited }).lastMessage).toEqual(edited);
  });

  it('moves the activity time forward only, from a timestamp or a last message', () => {
    expect(applied({ timestamp: 100 }).timestamp).toBe(100);
    expect(applied({ timestamp: 100 }, { timestamp: 50 }).timestamp).toBe(100);
    expect(applied({ timestamp: 100 }, { lastMessage: message('M1', 150) }).timestamp).toBe(150);
    expect(applied({ timestamp: 300 }, { lastMessage: message('M1', 150) })).toMatchObject({
      timestamp: 300,
      lastMessage: message('M1', 150),
    });
    // An explicit timestamp wins over the message's in the same change.
    expect(applied({ timestamp: 120, lastMessage: message('M1', 150) }).timestamp).toBe(120);
  });

  it('sets or adds to the unread count, never below 0; a set to 0 clears a hand-made mark, a count above not', () => {
    expect(applied({ unread: { set: 3 } }, { unread: { add: 2 } }).unreadCount).toBe(5);
    expect(applied({ unread: { add: 1 } }, { unread: { add: -5 } }).unreadCount).toBe(0);
    expect(applied({ unread: { set: -2 } }).unreadCount).toBe(0);
    expect(applied({ markedUnread: true }, { unread: { set: 4 } })).toMatchObject({
      unreadCount: 4,
      markedUnread: true,
    });
    expect(applied({ markedUnread: true }, { unread: { set: 0 } }).markedUnread).toBe(false);
    // A mark in the same change as the read applies after it.
    expect(applied({ unread: { set: 0 }, markedUnread: true }).markedUnread).toBe(true);
  });

  it('sets and clears the mark, archive, pin and mute', () => {
    const set = applied({ markedUnread: true, archived: true, pinnedAt: 10, muteUntil: MUTED_FOREVER });
    expect(set).toEqual({ ...newChat(A), markedUnread: true, archived: true, pinnedAt: 10, muteUntil: -1 });
    const cleared = applyChatChange(set, {
      id: A,
      markedUnread: false,
      archived: false,
      pinnedAt: null,
      muteUntil: null,
    });
    expect(cleared).toEqual(newChat(A));
  });

  it('drops the last message and the unread state on a clear, then applies the rest of the change', () => {
    const before = applied(
      { name: 'Alice', lastMessage: message('M2', 200), unread: { set: 3 } },
      { markedUnread: true, archived: true, pinnedAt: 5, muteUntil: 99 },
    );
    expect(applyChatChange(before, { id: A, cleared: true })).toEqual({
      ...before,
      lastMessage: null,
      unreadCount: 0,
      markedUnread: false,
    });
    expect(
      applyChatChange(before, { id: A, cleared: true, lastMessage: message('M1', 100), unread: { add: 1 } }),
    ).toMatchObject({ lastMessage: message('M1', 100), unreadCount: 1, timestamp: 200 });
  });
});

describe('chatSummaryOf', () => {
  const NOW = 1_750_000_000_000;

  it('answers the kind of the chat and whether it is a group or pinned', () => {
    expect(chatSummaryOf(newChat('1203630001@g.us'), NOW)).toMatchObject({
      kind: 'group',
      isGroup: true,
      pinned: false,
    });
    expect(chatSummaryOf({ ...newChat(A), pinnedAt: 1 }, NOW)).toMatchObject({
      kind: 'individual',
      isGroup: false,
      pinned: true,
    });
    expect(chatKindOf('123@lid')).toBe('individual');
    expect(chatKindOf('status@broadcast')).toBe('broadcast');
    expect(chatKindOf('0@s.whatsapp.net')).toBe('unknown');
  });

  it('copies the stored fields as they are', () => {
    const chat: ChatRecord = {
      ...newChat(A),
      name: 'Alice',
      unreadCount: 2,
      markedUnread: true,
      timestamp: 100,
      lastMessage: message('M1', 100),
      archived: true,
    };
    expect(chatSummaryOf(chat, NOW)).toEqual({
      id: A,
      name: 'Alice',
      isGroup: false,
      kind: 'individual',
      unreadCount: 2,
      markedUnread: true,
      timestamp: 100,
      lastMessage: message('M1', 100),
      archived: true,
      pinned: false,
      muted: false,
      muteExpiration: null,
    });
  });

  it('is muted until a future end, with that end; not for a past one or none', () => {
    const mutedUntil = (muteUntil: number | null) => chatSummaryOf({ ...newChat(A), muteUntil }, NOW);
    expect(mutedUntil(NOW + 60_000)).toMatchObject({ muted: true, muteExpiration: NOW + 60_000 });
    expect(mutedUntil(NOW)).toMatchObject({ muted: false, muteExpiration: null });
    expect(mutedUntil(NOW - 1)).toMatchObject({ muted: false, muteExpiration: null });
    expect(mutedUntil(null)).toMatchObject({ muted: false, muteExpiration: null });
  });

  it('is muted forever with MUTED_FOREVER, answering an expiration of 0', () => {
    expect(chatSummaryOf({ ...newChat(A), muteUntil: MUTED_FOREVER }, NOW)).toMatchObject({
      muted: true,
      muteExpiration: 0,
    });
  });
});
