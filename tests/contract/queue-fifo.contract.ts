/** FIFO behaviours of the queue contract: groups, ordering, deduplication, dead letters within a group. */
import { expect } from '@jest/globals';
import { ValidationError } from '#shared/errors/app-error.js';
import type { ReceivedMessage } from '#shared/ports/queue.port.js';
import { type QueueSuite, VISIBILITY_SECONDS } from './queue-suite.js';

const bodies = (messages: ReceivedMessage[]) => messages.map((message) => message.body);

export function fifoBehaviours(suite: QueueSuite): void {
  suite.behaviour('FIFO: a send without groupId is rejected', async () => {
    const { queue } = await suite.openQueue(true);
    await expect(queue.send({ body: 'a' })).rejects.toBeInstanceOf(ValidationError);
    expect(await queue.depth()).toBe(0);
  });

  suite.behaviour('FIFO: one receive may return several messages of a group, in send order', async () => {
    const { queue } = await suite.openQueue(true);
    for (const body of ['1', '2', '3', '4', '5']) await queue.send({ body, groupId: 'g' });
    const received = await queue.receive({ maxMessages: 10 });
    expect(bodies(received)).toEqual(['1', '2', '3', '4', '5']);
    expect(received.every((message) => message.groupId === 'g')).toBe(true);
  });

  suite.behaviour(
    'FIFO: while a message of a group is in flight, no later message of it is delivered',
    async () => {
      const { queue } = await suite.openQueue(true);
      await queue.send({ body: '1', groupId: 'g' });
      await queue.send({ body: '2', groupId: 'g' });
      const [first] = await queue.receive();
      expect(first?.body).toBe('1');
      expect(await queue.receive({ maxMessages: 10 })).toEqual([]);
      await queue.delete(first!.receiptHandle);
      expect(bodies(await queue.receive({ maxMessages: 10 }))).toEqual(['2']);
    },
  );

  suite.behaviour(
    'FIFO: an expired message is redelivered before the later messages of its group',
    async () => {
      const { queue } = await suite.openQueue(true);
      await queue.send({ body: '1', groupId: 'g' });
      await queue.send({ body: '2', groupId: 'g' });
      await queue.receive();
      suite.clock().advance(VISIBILITY_SECONDS * 1000);
      expect(await queue.receive()).toMatchObject([{ body: '1', receiveCount: 2 }]);
      expect(await queue.receive({ maxMessages: 10 })).toEqual([]);
    },
  );

  suite.behaviour(
    'FIFO: a message made visible again waits while a later message of its group is in flight',
    async () => {
      const { queue } = await suite.openQueue(true);
      await queue.send({ body: '1', groupId: 'g' });
      await queue.send({ body: '2', groupId: 'g' });
      const [first, second] = await queue.receive({ maxMessages: 10 });
      await queue.changeVisibility(first!.receiptHandle, 0);
      expect(await queue.receive({ maxMessages: 10 })).toEqual([]);
      await queue.delete(second!.receiptHandle);
      expect(await queue.receive()).toMatchObject([{ body: '1', receiveCount: 2 }]);
    },
  );

  suite.behaviour('FIFO: a delayed message holds back the later messages of its group only', async () => {
    const { queue } = await suite.openQueue(true);
    await queue.send({ body: 'a1', groupId: 'a', delaySeconds: 10 });
    await queue.send({ body: 'a2', groupId: 'a' });
    await queue.send({ body: 'b1', groupId: 'b' });
    expect(bodies(await queue.receive({ maxMessages: 10 }))).toEqual(['b1']);
    suite.clock().advance(10_000);
    expect(bodies(await queue.receive({ maxMessages: 10 }))).toEqual(['a1', 'a2']);
  });

  suite.behaviour('FIFO: other groups proceed in order while one group is blocked', async () => {
    const { queue } = await suite.openQueue(true);
    for (const [body, groupId] of [
      ['a1', 'a'],
      ['b1', 'b'],
      ['a2', 'a'],
      ['b2', 'b'],
      ['c1', 'c'],
    ]) {
      await queue.send({ body: body!, groupId: groupId! });
    }
    const [a1] = await queue.receive();
    expect(a1?.body).toBe('a1');
    const others = await queue.receive({ maxMessages: 10 });
    const ofGroup = (group: string) => bodies(others.filter((message) => message.groupId === group));
    expect(ofGroup('a')).toEqual([]);
    expect(ofGroup('b')).toEqual(['b1', 'b2']);
    expect(ofGroup('c')).toEqual(['c1']);
    await queue.delete(a1!.receiptHandle);
    expect(bodies(await queue.receive({ maxMessages: 10 }))).toEqual(['a2']);
  });

  suite.behaviour(
    'FIFO: a repeated dedupId within 5 minutes answers the first id and stores nothing',
    async () => {
      const { queue } = await suite.openQueue(true);
      const first = await queue.send({ body: 'a', groupId: 'g', dedupId: 'd' });
      suite.clock().advance(5 * 60_000 - 1_000);
      const again = await queue.send({ body: 'b', groupId: 'g', dedupId: 'd' });
      expect(again.id).toBe(first.id);
      expect(await queue.depth()).toBe(1);
      expect(bodies(await queue.receive({ maxMessages: 10 }))).toEqual(['a']);
    },
  );

  suite.behaviour(
    'FIFO: a dedupId is remembered for 5 minutes even after its message is deleted',
    async () => {
      const { queue } = await suite.openQueue(true);
      const first = await queue.send({ body: 'a', groupId: 'g', dedupId: 'd' });
      const [received] = await queue.receive();
      await queue.delete(received!.receiptHandle);
      expect((await queue.send({ body: 'a', groupId: 'g', dedupId: 'd' })).id).toBe(first.id);
      expect(await queue.depth()).toBe(0);
    },
  );

  suite.behaviour('FIFO: the same dedupId after 5 minutes is a new message', async () => {
    const { queue } = await suite.openQueue(true);
    const first = await queue.send({ body: 'a', groupId: 'g', dedupId: 'd' });
    suite.clock().advance(5 * 60_000 + 1_000);
    const later = await queue.send({ body: 'b', groupId: 'g', dedupId: 'd' });
    expect(later.id).not.toBe(first.id);
    expect(await queue.depth()).toBe(2);
  });

  suite.behaviour(
    'a message received maxReceiveCount times moves to the dead-letter queue instead of being delivered',
    async () => {
      const { queue, deadLetters } = await suite.openQueue(false, 2);
      expect(deadLetters).toBeDefined();
      await queue.send({ body: 'poison' });
      expect(await queue.receive()).toMatchObject([{ receiveCount: 1 }]);
      suite.clock().advance(VISIBILITY_SECONDS * 1000);
      expect(await queue.receive()).toMatchObject([{ receiveCount: 2 }]);
      suite.clock().advance(VISIBILITY_SECONDS * 1000);
      expect(await queue.receive({ maxMessages: 10 })).toEqual([]);
      expect(await queue.depth()).toBe(0);
      expect(await deadLetters!.depth()).toBe(1);
      expect(await deadLetters!.receive()).toMatchObject([{ body: 'poison', receiveCount: 1 }]);
    },
  );

  suite.behaviour('FIFO: a dead-lettered message keeps its groupId and unblocks its group', async () => {
    const { queue, deadLetters } = await suite.openQueue(true, 1);
    await queue.send({ body: 'x', groupId: 'g' });
    await queue.send({ body: 'y', groupId: 'g' });
    expect(bodies(await queue.receive())).toEqual(['x']);
    suite.clock().advance(VISIBILITY_SECONDS * 1000);
    expect(bodies(await queue.receive({ maxMessages: 10 }))).toEqual(['y']);
    expect(await deadLetters!.receive()).toMatchObject([{ body: 'x', groupId: 'g' }]);
  });
}
