/**
 * A revoke takes the message's archived media with it: once the row is cleared the file is deleted (after the row, so
 * a row never points at a file that is gone). Other changes keep the file; a failed delete is logged, never thrown
 * at the engine.
 */

import { describe, expect, it } from '@jest/globals';
import { ChatSink } from '#host/chats/chat-sink.js';
import { EventBus } from '#host/events/event-bus.js';
import { createHostEvents } from '#host/events/host-events.js';
import { MessageSink } from '#host/messages/message-sink.js';
import { MemoryChatStore } from '#shared/adapters/memory/memory-chat-store.js';
import { MemoryEventOutbox } from '#shared/adapters/memory/memory-event-outbox.js';
import { MemoryIdentityStore } from '#shared/adapters/memory/memory-identity-store.js';
import { MemoryMediaStorage } from '#shared/adapters/memory/memory-media-storage.js';
import { MemoryMessageStore } from '#shared/adapters/memory/memory-message-store.js';
import type { MessageChange } from '#shared/domain/message-changes.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import { systemClock } from '#shared/ports/clock.port.js';
import { aMessage } from '#tests/helpers/builders.js';
import { capturingLogger, type LogLine } from '#tests/helpers/capturing-logger.js';
import { memoryStatusSink } from '#tests/helpers/memory-status-sink.js';

const CONTACT = '4915100000001@c.us';

async function setUp(media = new MemoryMediaStorage()) {
  const lines: LogLine[] = [];
  const logger = capturingLogger(lines);
  const messages = new MemoryMessageStore();
  const { recorder } = createHostEvents({
    outbox: new MemoryEventOutbox(),
    bus: new EventBus(logger),
    clock: systemClock,
    logger,
  });
  const sink = new MessageSink({
    messages,
    identities: new MemoryIdentityStore(),
    media,
    events: recorder,
    chats: new ChatSink({
      chats: new MemoryChatStore(),
      messages: messages,
      media: new MemoryMediaStorage(),
      logger,
    }),
    statuses: memoryStatusSink(recorder, systemClock),
    clock: systemClock,
    logger,
  });
  const message = aMessage({
    direction: 'incoming',
    from: CONTACT,
    chatId: CONTACT,
    type: 'image',
    body: null,
  });
  const stored = await media.put({
    sessionId: message.sessionId,
    messageId: message.id,
    mimetype: 'image/jpeg',
    data: new Uint8Array([1, 2, 3]),
  });
  await messages.insert({ ...message, mediaPath: stored.path, mediaMimetype: stored.mimetype });
  const change = (change: MessageChange) =>
    sink.changed(message.sessionId, {
      targetId: message.waMessageId as string,
      senderId: CONTACT,
      fromMe: false,
      change,
    });
  return { sink, media, messages, message, path: stored.path, change, lines };
}

const at = (kind: 'revoke' | 'reaction') =>
  ({ chatId: CONTACT, senderId: CONTACT, timestamp: 1_750_000_000, kind, emoji: '👍' }) as MessageChange;

describe('MessageSink: media of changed messages', () => {
  it('a revoke clears the row and deletes its file', async () => {
    const { media, messages, message, path, change } = await setUp();
    const result = await change(at('revoke'));
    expect(result.outcome).toBe('updated');
    expect(await messages.findById(message.sessionId, message.id)).toMatchObject({
      type: 'revoked',
      mediaPath: null,
    });
    expect(await media.stat(path)).toBeNull();
  });

  it('a reaction keeps the file', async () => {
    const { media, path, change } = await setUp();
    expect((await change(at('reaction'))).outcome).toBe('updated');
    expect(await media.stat(path)).not.toBeNull();
  });

  it('a failed delete is logged and the revoke still stands', async () => {
    const media = new MemoryMediaStorage();
    media.delete = async () => {
      throw new UnavailableError('DEPENDENCY_UNAVAILABLE', 'Media storage is unavailable');
    };
    const { messages, message, change, lines } = await setUp(media);
    expect((await change(at('revoke'))).outcome).toBe('updated');
    expect((await messages.findById(message.sessionId, message.id))?.type).toBe('revoked');
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'revoked media not deleted' }),
    );
  });
});
