import { ValidationError } from '#shared/errors/app-error.js';
import type { ReceivedMessage } from '#shared/ports/queue.port.js';
import { TestClock } from '#tests/helpers/test-clock.js';
import { fifoBehaviours } from './queue-fifo.contract.js';
import { type OpenedQueue, type OpenQueueOptions, VISIBILITY_SECONDS } from './queue-suite.js';

export type { OpenedQueue, OpenQueueOptions } from './queue-suite.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bodies = (messages: ReceivedMessage[]) => messages.map((message) => message.body);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every Queue adapter owes (SQS semantics), written against the port only. `skip` maps a test
 * name to the reason it cannot pass on that adapter (e.g. an SQS emulator without FIFO group blocking).
 */
export function queueContract(
  name: string,
  open: (opts: OpenQueueOptions) => Promise<OpenedQueue>,
  options: { skip?: Record<string, string> } = {},
): void {
  describe(`Queue contract: ${name}`, () => {
    const opened: OpenedQueue[] = [];
    const defined = new Set<string>();
    let clock = new TestClock();

    beforeEach(() => {
      clock = new TestClock();
    });
    afterEach(async () => {
      for (const queue of opened.splice(0)) await queue.close();
    });

    async function openQueue(fifo: boolean, maxReceiveCount?: number): Promise<OpenedQueue> {
      const result = await open({
        fifo,
        visibilityTimeoutSeconds: VISIBILITY_SECONDS,
        maxReceiveCount,
        clock,
      });
      opened.push(result);
      return result;
    }

    function behaviour(testName: string, fn: () => Promise<void>): void {
      defined.add(testName);
      const reason = options.skip?.[testName];
      if (reason === undefined) {
        it(testName, fn);
      } else {
        it.skip(`${testName} [skipped: ${reason}]`, fn); // skip reason: written by the adapter's suite, shown in the name
      }
    }

    behaviour('send answers a uuid id', async () => {
      const { queue } = await openQueue(false);
      expect((await queue.send({ body: 'a' })).id).toMatch(UUID);
    });

    behaviour('receive on an empty queue answers [] at once', async () => {
      const { queue } = await openQueue(false);
      const started = Date.now();
      expect(await queue.receive({ maxMessages: 10 })).toEqual([]);
      expect(Date.now() - started).toBeLessThan(500);
    });

    behaviour('a standard queue delivers the oldest messages first', async () => {
      const { queue } = await openQueue(false);
      for (const body of ['a', 'b', 'c']) await queue.send({ body });
      expect(bodies(await queue.receive({ maxMessages: 10 }))).toEqual(['a', 'b', 'c']);
    });

    behaviour('receive answers at most maxMessages, one by default', async () => {
      const { queue } = await openQueue(false);
      for (const body of ['a', 'b', 'c', 'd', 'e']) await queue.send({ body });
      expect(await queue.receive()).toHaveLength(1);
      expect(await queue.receive({ maxMessages: 3 })).toHaveLength(3);
      expect(await queue.receive({ maxMessages: 10 })).toHaveLength(1);
    });

    behaviour('maxMessages outside 1–10 is rejected', async () => {
      const { queue } = await openQueue(false);
      await expect(queue.receive({ maxMessages: 0 })).rejects.toBeInstanceOf(ValidationError);
      await expect(queue.receive({ maxMessages: 11 })).rejects.toBeInstanceOf(ValidationError);
    });

    behaviour(
      'a received message is hidden for the visibility timeout, then redelivered with receiveCount 2',
      async () => {
        const { queue } = await openQueue(false);
        const { id } = await queue.send({ body: 'a' });
        const [first] = await queue.receive();
        expect(first).toMatchObject({ id, body: 'a', receiveCount: 1, groupId: null });
        expect(await queue.receive()).toEqual([]);
        clock.advance(VISIBILITY_SECONDS * 1000 - 1);
        expect(await queue.receive()).toEqual([]);
        clock.advance(1);
        const [second] = await queue.receive();
        expect(second).toMatchObject({ id, body: 'a', receiveCount: 2 });
        expect(second?.receiptHandle).not.toBe(first?.receiptHandle);
      },
    );

    behaviour('the receive visibilityTimeoutSeconds option overrides the queue default', async () => {
      const { queue } = await openQueue(false);
      await queue.send({ body: 'a' });
      await queue.receive({ visibilityTimeoutSeconds: 5 });
      clock.advance(4999);
      expect(await queue.receive()).toEqual([]);
      clock.advance(1);
      expect(bodies(await queue.receive())).toEqual(['a']);
    });

    behaviour('changeVisibility 0 makes a received message visible at once', async () => {
      const { queue } = await openQueue(false);
      await queue.send({ body: 'a' });
      const [received] = await queue.receive();
      await queue.changeVisibility(received!.receiptHandle, 0);
      expect(await queue.receive()).toMatchObject([{ body: 'a', receiveCount: 2 }]);
    });

    behaviour('changeVisibility extends the hidden time, counted from now', async () => {
      const { queue } = await openQueue(false);
      await queue.send({ body: 'a' });
      const [received] = await queue.receive();
      clock.advance(20_000);
      await queue.changeVisibility(received!.receiptHandle, 60);
      clock.advance(59_999);
      expect(await queue.receive()).toEqual([]);
      clock.advance(1);
      expect(bodies(await queue.receive())).toEqual(['a']);
    });

    behaviour('changeVisibility with a stale or unknown receipt handle is rejected', async () => {
      const { queue } = await openQueue(false);
      await queue.send({ body: 'a' });
      const [first] = await queue.receive();
      clock.advance(VISIBILITY_SECONDS * 1000);
      await queue.receive();
      await expect(queue.changeVisibility(first!.receiptHandle, 0)).rejects.toBeInstanceOf(ValidationError);
      await expect(queue.changeVisibility('no-such-handle', 0)).rejects.toBeInstanceOf(ValidationError);
    });

    behaviour('delete removes a received message for good', async () => {
      const { queue } = await openQueue(false);
      await queue.send({ body: 'a' });
      const [received] = await queue.receive();
      await queue.delete(received!.receiptHandle);
      expect(await queue.depth()).toBe(0);
      clock.advance(VISIBILITY_SECONDS * 1000 * 2);
      expect(await queue.receive()).toEqual([]);
    });

    behaviour('delete with a stale or unknown receipt handle is a no-op', async () => {
      const { queue } = await openQueue(false);
      await queue.send({ body: 'a' });
      const [first] = await queue.receive();
      clock.advance(VISIBILITY_SECONDS * 1000);
      const [second] = await queue.receive();
      await expect(queue.delete(first!.receiptHandle)).resolves.toBeUndefined();
      await expect(queue.delete('no-such-handle')).resolves.toBeUndefined();
      expect(await queue.depth()).toBe(1);
      await queue.delete(second!.receiptHandle);
      expect(await queue.depth()).toBe(0);
    });

    behaviour('delaySeconds hides a new message until the delay has passed', async () => {
      const { queue } = await openQueue(false);
      await queue.send({ body: 'late', delaySeconds: 10 });
      expect(await queue.receive()).toEqual([]);
      clock.advance(9_999);
      expect(await queue.receive()).toEqual([]);
      clock.advance(1);
      expect(bodies(await queue.receive())).toEqual(['late']);
    });

    behaviour('delaySeconds outside 0–900 is rejected and nothing is stored', async () => {
      const { queue } = await openQueue(false);
      await expect(queue.send({ body: 'a', delaySeconds: 901 })).rejects.toBeInstanceOf(ValidationError);
      await expect(queue.send({ body: 'a', delaySeconds: -1 })).rejects.toBeInstanceOf(ValidationError);
      expect(await queue.depth()).toBe(0);
    });

    behaviour('an empty body is rejected', async () => {
      const { queue } = await openQueue(false);
      await expect(queue.send({ body: '' })).rejects.toBeInstanceOf(ValidationError);
    });

    behaviour(
      'a standard queue does not hold back a group while one of its messages is in flight',
      async () => {
        const { queue } = await openQueue(false);
        await queue.send({ body: '1', groupId: 'g' });
        await queue.send({ body: '2', groupId: 'g' });
        expect(bodies(await queue.receive())).toEqual(['1']);
        expect(bodies(await queue.receive())).toEqual(['2']);
      },
    );

    fifoBehaviours({ openQueue, behaviour, clock: () => clock });

    behaviour('a long poll is woken by a send within 1 s', async () => {
      const { queue } = await openQueue(true);
      const started = Date.now();
      const pending = queue.receive({ waitTimeSeconds: 10 });
      await sleep(100);
      await queue.send({ body: 'late', groupId: 'g' });
      expect(bodies(await pending)).toEqual(['late']);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    behaviour('a long poll answers [] at its deadline', async () => {
      const { queue } = await openQueue(false);
      const started = Date.now();
      expect(await queue.receive({ waitTimeSeconds: 1 })).toEqual([]);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(950);
      expect(elapsed).toBeLessThan(2000);
    });

    behaviour('aborting a long poll answers [] and takes nothing', async () => {
      const { queue } = await openQueue(false);
      const controller = new AbortController();
      const started = Date.now();
      const pending = queue.receive({ waitTimeSeconds: 10, signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      expect(await pending).toEqual([]);
      // Well before the 10 s poll would end; the margin is for a loaded machine (CI missed 1 s once).
      expect(Date.now() - started).toBeLessThan(5000);
      await queue.send({ body: 'after' });
      expect(bodies(await queue.receive())).toEqual(['after']);
    });

    behaviour('depth counts visible, in-flight and delayed messages until they are deleted', async () => {
      const { queue } = await openQueue(false);
      expect(await queue.depth()).toBe(0);
      await queue.send({ body: 'a' });
      await queue.send({ body: 'b' });
      await queue.send({ body: 'c', delaySeconds: 60 });
      const [received] = await queue.receive();
      expect(await queue.depth()).toBe(3);
      await queue.delete(received!.receiptHandle);
      expect(await queue.depth()).toBe(2);
    });

    it('the skip map names only tests of this suite', () => {
      expect(Object.keys(options.skip ?? {}).filter((key) => !defined.has(key))).toEqual([]);
    });
  });
}
