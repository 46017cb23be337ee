import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ConnectSlots } from '#host/sessions/connect-slots.js';

describe('ConnectSlots', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('lets `limit` through, the next ones in the order they asked, one per release', async () => {
    const slots = new ConnectSlots(2, 60_000);
    const first = await slots.acquire();
    await slots.acquire();
    const order: number[] = [];
    const third = slots.acquire().then((release) => {
      order.push(3);
      return release;
    });
    const fourth = slots.acquire().then(() => order.push(4));
    await Promise.resolve();
    expect([slots.connecting, slots.queued, order]).toEqual([2, 2, []]);
    first();
    first();
    await third;
    expect([slots.connecting, slots.queued, order]).toEqual([2, 1, [3]]);
    (await third)();
    await fourth;
    expect([slots.connecting, slots.queued, order]).toEqual([2, 0, [3, 4]]);
  });

  it('takes a slot back by itself after holdMs, so a connection that never reports holds no slot for good', async () => {
    const slots = new ConnectSlots(1, 1000);
    const release = await slots.acquire();
    let next = false;
    const waiting = slots.acquire().then(() => {
      next = true;
    });
    await jest.advanceTimersByTimeAsync(999);
    expect(next).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await waiting;
    expect(next).toBe(true);
    // The late release of the first holder must not free a second slot.
    release();
    expect(slots.connecting).toBe(1);
  });
});
