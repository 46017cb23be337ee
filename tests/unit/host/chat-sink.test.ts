/**
 * ChatSink: a session's chat reports are written in the order they came, a burst in few writes; a clear or delete
 * removes the chat's stored messages and their files; a failed write is logged and never rejects.
 */
import { describe, expect, it } from '@jest/globals';
import { ChatSink } from '#host/chats/chat-sink.js';
import { MemoryChatStore } from '#shared/adapters/memory/memory-chat-store.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryMessageStore } from '#shared/adapters/memory/memory-message-store.js';
import type { ChatChange } from '#shared/domain/chat.js';
import { aMessage } from '#tests/helpers/builders.js';
import { capturingLogger, type LogLine } from '#tests/helpers/capturing-logger.js';

const SESSION = '11111111-1111-4111-8111-111111111111';
const ALICE = '15550002222@c.us';

function setUp() {
  const chats = new MemoryChatStore();
  const messages = new MemoryMessageStore();
  const media = new MemoryMediaStorage();
  const lines: LogLine[] = [];
  const writes: (readonly ChatChange[])[] = [];
  const counted = Object.assign(Object.create(chats) as MemoryChatStore, {
    apply: (sessionId: string, changes: readonly ChatChange[]) => {
      writes.push(changes);
      return chats.apply(sessionId, changes);
    },
  });
  const sink = new ChatSink({ chats: counted, messages, media, logger: capturingLogger(lines) });
  return { sink, chats, messages, media, lines, writes };
}

describe('ChatSink', () => {
  it('applies a burst of reports in order, in fewer writes than reports', async () => {
    const { sink, chats, writes } = setUp();
    const reports = Array.from({ length: 20 }, (_, i) =>
      sink.messageStored(
        aMessage({
          sessionId: SESSION,
          chatId: ALICE,
          direction: 'incoming',
          timestamp: 1000 + i,
          body: `m${i}`,
        }),
      ),
    );
    reports.push(sink.changed(SESSION, [{ id: ALICE, unread: { set: 0 }, archived: true }]));
    await Promise.all(reports);

    const chat = await chats.findById(SESSION, ALICE);
    expect(chat).toMatchObject({
      unreadCount: 0,
      archived: true,
      timestamp: 1019,
      lastMessage: { body: 'm19' },
    });
    expect(writes.length).toBeLessThan(reports.length);
    expect(writes.length).toBeGreaterThanOrEqual(2);
  });

  it('counts a received message as unread, a sent one not, and names the author in a group', async () => {
    const { sink, chats } = setUp();
    const group = '120363025246125411@g.us';
    await sink.messageStored(
      aMessage({ sessionId: SESSION, chatId: group, author: ALICE, direction: 'incoming', timestamp: 5 }),
    );
    await sink.messageStored(
      aMessage({ sessionId: SESSION, chatId: group, direction: 'outgoing', timestamp: 6 }),
    );
    const chat = await chats.findById(SESSION, group);
    expect(chat?.unreadCount).toBe(1);
    expect(chat?.lastMessage).toMatchObject({ fromMe: true, author: null, timestamp: 6 });
  });

  it('a clear removes the chat’s stored messages and their files, and its last message', async () => {
    const { sink, chats, messages, media } = setUp();
    const file = await media.put({
      sessionId: SESSION,
      messageId: 'M1',
      mimetype: 'image/png',
      data: new Uint8Array(4),
    });
    const withFile = aMessage({
      sessionId: SESSION,
      chatId: ALICE,
      direction: 'incoming',
      mediaPath: file.path,
    });
    const other = aMessage({ sessionId: SESSION, chatId: '15550003333@c.us', direction: 'incoming' });
    for (const message of [withFile, other]) {
      await messages.insert(message);
      await sink.messageStored(message);
    }
    await sink.cleared(SESSION, ALICE);

    expect(await messages.findById(SESSION, withFile.id)).toBeNull();
    expect(await messages.findById(SESSION, other.id)).not.toBeNull();
    expect(await media.get(file.path)).toBeNull();
    expect(await chats.findById(SESSION, ALICE)).toMatchObject({ lastMessage: null, unreadCount: 0 });
  });

  it('a delete removes the chat and its stored messages', async () => {
    const { sink, chats, messages } = setUp();
    const message = aMessage({ sessionId: SESSION, chatId: ALICE, direction: 'incoming' });
    await messages.insert(message);
    await sink.messageStored(message);
    await sink.deleted(SESSION, [ALICE]);
    expect(await chats.findById(SESSION, ALICE)).toBeNull();
    expect(await messages.findById(SESSION, message.id)).toBeNull();
  });

  it('a failed write is logged and the next report is still written', async () => {
    const { sink, chats, lines } = setUp();
    const failing = Object.assign(Object.create(chats) as MemoryChatStore, {
      apply: async () => {
        throw new Error('store down');
      },
    });
    const broken = new ChatSink({
      chats: failing,
      messages: new MemoryMessageStore(),
      media: new MemoryMediaStorage(),
      logger: capturingLogger(lines),
    });
    await expect(broken.changed(SESSION, [{ id: ALICE, archived: true }])).resolves.toBeUndefined();
    expect(lines.some((line) => line.message === 'writing chat changes failed')).toBe(true);
    await sink.changed(SESSION, [{ id: ALICE, archived: true }]);
    expect((await chats.findById(SESSION, ALICE))?.archived).toBe(true);
  });

  it('drain waits for every write in flight', async () => {
    const { sink, chats } = setUp();
    void sink.changed(SESSION, [{ id: ALICE, pinnedAt: 7 }]);
    await sink.drain();
    expect((await chats.findById(SESSION, ALICE))?.pinnedAt).toBe(7);
  });
});
