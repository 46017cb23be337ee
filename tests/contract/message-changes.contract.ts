/**
 * Behaviour every MessageStore adapter must show for reactions, edits and revokes: the change lands on the row with
 * its network id, a repeat or an out-of-date change writes nothing, the outbox entry commits with the row, and two
 * changes of one row racing never overwrite each other.
 */
import { randomUUID } from 'node:crypto';
import type { GatewayEvent } from '#shared/domain/events.js';
import type { Message } from '#shared/domain/message.js';
import { reactionEventData } from '#shared/domain/message-change-events.js';
import { personLookup } from '#shared/domain/person-ids.js';
import type { EventOutbox, OutboxEntry } from '#shared/ports/event-outbox.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';
import { aMessage, aSession, at } from '#tests/helpers/builders.js';
import type { OpenedEventOutbox } from './event-outbox.contract.js';

const ALICE = '4915111111111@c.us';
const CHAT = '4915112345678@c.us';
/** The sender of the target (aMessage's default `from`). */
const OWNER = '4915100000001@c.us';
const BOB = '4915122222222@c.us';
const claimAll = (outbox: EventOutbox) =>
  outbox.claimStale({ olderThan: new Date(at(400)), now: new Date(at(500)), limit: 100 });

const reactionEntry = (message: Message, senderId: string, emoji: string): OutboxEntry => {
  const event: GatewayEvent = {
    event: 'message.reaction',
    sessionId: message.sessionId,
    occurredAt: at(2),
    data: reactionEventData(
      message,
      { senderId, emoji, timestamp: 1_700_000_100, fromMe: false },
      personLookup(new Map()),
    ),
  };
  return { id: randomUUID(), event, createdAt: at(2) };
};

export function messageChangesContract(name: string, open: () => Promise<OpenedEventOutbox>): void {
  describe(`MessageStore changes contract: ${name}`, () => {
    let store: MessageStore;
    let outbox: EventOutbox;
    let close: () => Promise<void>;
    let sessionId: string;
    let target: Message;

    beforeEach(async () => {
      const opened = await open();
      ({ messages: store, outbox, close } = opened);
      const session = aSession();
      await opened.sessions.create(session);
      sessionId = session.id;
      target = aMessage({
        sessionId,
        waMessageId: 'TARGET1',
        chatId: CHAT,
        from: OWNER,
        body: 'hello',
        metadata: { pushName: 'Al' },
      });
      expect(await store.insert(target)).toBe(true);
    });
    afterEach(async () => {
      await close();
    });

    const react = (senderId: string, emoji: string, timestamp: number) =>
      store.applyChange(sessionId, 'TARGET1', { chatId: CHAT, kind: 'reaction', senderId, emoji, timestamp });

    it('keeps each sender’s latest reaction, takes one back with an empty emoji, and keeps other metadata', async () => {
      expect((await react(ALICE, '👍', 10)).outcome).toBe('updated');
      expect((await react(BOB, '❤️', 11)).outcome).toBe('updated');
      expect((await react(ALICE, '😂', 12)).outcome).toBe('updated');
      let stored = await store.findByWaMessageId(sessionId, 'TARGET1');
      expect(stored?.metadata).toEqual({
        pushName: 'Al',
        reactions: { [ALICE]: { emoji: '😂', timestamp: 12 }, [BOB]: { emoji: '❤️', timestamp: 11 } },
      });
      expect((await react(BOB, '', 13)).outcome).toBe('updated');
      expect((await react(ALICE, '', 14)).outcome).toBe('updated');
      stored = await store.findByWaMessageId(sessionId, 'TARGET1');
      expect(stored?.metadata).toEqual({ pushName: 'Al' });
    });

    it('answers unchanged, writing nothing, for a repeated or out-of-date reaction', async () => {
      await react(ALICE, '👍', 10);
      const repeat = await react(ALICE, '👍', 10);
      expect(repeat.outcome).toBe('unchanged');
      const stale = await react(ALICE, '😢', 9);
      expect(stale).toEqual({ outcome: 'unchanged', message: expect.objectContaining({ id: target.id }) });
      const stored = await store.findByWaMessageId(sessionId, 'TARGET1');
      expect(stored?.metadata?.reactions).toEqual({ [ALICE]: { emoji: '👍', timestamp: 10 } });
    });

    it('edits the body, marks when, and ignores the same edit again', async () => {
      const change = await store.applyChange(sessionId, 'TARGET1', {
        chatId: CHAT,
        senderId: OWNER,
        kind: 'edit',
        body: 'hello, edited',
        timestamp: 20,
      });
      expect(change).toEqual({
        outcome: 'updated',
        message: expect.objectContaining({ body: 'hello, edited' }),
        previous: expect.objectContaining({ body: 'hello' }),
      });
      const again = await store.applyChange(sessionId, 'TARGET1', {
        chatId: CHAT,
        senderId: OWNER,
        kind: 'edit',
        body: 'hello, edited',
        timestamp: 21,
      });
      expect(again.outcome).toBe('unchanged');
      const stored = await store.findById(sessionId, target.id);
      expect(stored).toEqual({
        ...target,
        body: 'hello, edited',
        metadata: { pushName: 'Al', editedAt: 20 },
      });
    });

    it('revokes: the row keeps only that it was deleted, and nothing changes it afterwards', async () => {
      await react(ALICE, '👍', 10);
      expect(
        (
          await store.applyChange(sessionId, 'TARGET1', {
            chatId: CHAT,
            senderId: OWNER,
            kind: 'revoke',
            timestamp: 30,
          })
        ).outcome,
      ).toBe('updated');
      expect(
        (
          await store.applyChange(sessionId, 'TARGET1', {
            chatId: CHAT,
            senderId: OWNER,
            kind: 'revoke',
            timestamp: 31,
          })
        ).outcome,
      ).toBe('unchanged');
      expect(
        (
          await store.applyChange(sessionId, 'TARGET1', {
            chatId: CHAT,
            senderId: OWNER,
            kind: 'edit',
            body: 'x',
            timestamp: 32,
          })
        ).outcome,
      ).toBe('unchanged');
      expect((await react(BOB, '❤️', 33)).outcome).toBe('unchanged');
      const stored = await store.findById(sessionId, target.id);
      expect(stored).toEqual({ ...target, type: 'revoked', body: null, metadata: { revokedAt: 30 } });
      // History still lists it, where it was.
      const { messages } = await store.list({ sessionId }, { limit: 10, offset: 0 });
      expect(messages.map((m) => m.type)).toEqual(['revoked']);
    });

    it('changes nothing for a change from another chat, or an edit or revoke by someone other than the sender', async () => {
      const other = { chatId: CHAT, senderId: ALICE, timestamp: 60 };
      const attempts = [
        { ...other, kind: 'edit' as const, body: 'forged' },
        { ...other, kind: 'revoke' as const },
        { chatId: 'other@c.us', senderId: OWNER, timestamp: 61, kind: 'edit' as const, body: 'elsewhere' },
        { chatId: 'other@c.us', senderId: ALICE, timestamp: 62, kind: 'reaction' as const, emoji: '👍' },
      ];
      for (const change of attempts) {
        expect((await store.applyChange(sessionId, 'TARGET1', change)).outcome).toBe('unchanged');
      }
      expect(await store.findById(sessionId, target.id)).toEqual(target);
    });

    it('answers not_found for an unknown network id or another session’s message', async () => {
      expect(
        await store.applyChange(sessionId, 'NOPE', {
          chatId: CHAT,
          senderId: OWNER,
          kind: 'revoke',
          timestamp: 1,
        }),
      ).toEqual({
        outcome: 'not_found',
      });
      expect(
        await store.applyChange(randomUUID(), 'TARGET1', {
          chatId: CHAT,
          senderId: OWNER,
          kind: 'revoke',
          timestamp: 1,
        }),
      ).toEqual({
        outcome: 'not_found',
      });
    });

    it('stores the outbox entry with the change, and none when nothing changed', async () => {
      let built: OutboxEntry | undefined;
      await store.applyChange(
        sessionId,
        'TARGET1',
        { chatId: CHAT, kind: 'reaction', senderId: ALICE, emoji: '👍', timestamp: 10 },
        ({ message, previous }) => {
          expect(previous.metadata?.reactions).toBeUndefined();
          built = reactionEntry(message, ALICE, '👍');
          return built;
        },
      );
      expect(built?.event.data).toMatchObject({ reactions: { [ALICE]: '👍' } });
      let asked = 0;
      await store.applyChange(
        sessionId,
        'TARGET1',
        { chatId: CHAT, kind: 'reaction', senderId: ALICE, emoji: '👍', timestamp: 10 },
        () => {
          asked += 1;
          return null;
        },
      );
      expect(asked).toBe(0);
      expect(await claimAll(outbox)).toEqual([built]);
    });

    it('applies concurrent changes of one row without losing any', async () => {
      const senders = Array.from({ length: 8 }, (_, i) => `49151000000${String(i).padStart(2, '0')}@c.us`);
      const results = await Promise.all([
        ...senders.map((sender, i) => react(sender, '👍', 40 + i)),
        store.applyChange(sessionId, 'TARGET1', {
          chatId: CHAT,
          senderId: OWNER,
          kind: 'edit',
          body: 'edited meanwhile',
          timestamp: 50,
        }),
      ]);
      expect(results.every((result) => result.outcome === 'updated')).toBe(true);
      const stored = await store.findByWaMessageId(sessionId, 'TARGET1');
      expect(Object.keys(stored?.metadata?.reactions ?? {}).sort()).toEqual([...senders].sort());
      expect(stored?.body).toBe('edited meanwhile');
    });
  });
}
