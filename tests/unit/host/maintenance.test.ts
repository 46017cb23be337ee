/**
 * The host's retention schedule: every job whose retention is on runs at once and then every 24 hours, on a timer that
 * does not keep the process alive; a failing job is logged, not thrown.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { scheduleRetention } from '#host/maintenance.js';
import { createMemoryDataStore, MemoryAuditLogStore } from '#shared/adapters/memory/memory-stores.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { retentionJobs } from '#shared/use-cases/maintenance/retention.js';
import { aDeliveryFailure, anAuditEntry } from '#tests/helpers/builders.js';
import { TestClock } from '#tests/helpers/test-clock.js';

const DAY_MS = 86_400_000;
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('scheduleRetention', () => {
  it('runs the jobs that have a retention at once, and skips those without', async () => {
    const ran: string[] = [];
    const stop = scheduleRetention(
      [
        { name: 'a', retentionDays: 90, run: async () => ran.push('a') },
        { name: 'b', retentionDays: null, run: async () => ran.push('b') },
        {
          name: 'c',
          retentionDays: 30,
          run: async () => {
            ran.push('c');
            throw new Error('store down');
          },
        },
      ],
      silentLogger,
    );
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    expect(ran).toEqual(['a', 'c']);
  });

  describe('on a test clock and fake timers', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    it('prunes at start, then every 24 hours what aged past the retention meanwhile, until it is stopped', async () => {
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
      const clock = new TestClock();
      const audit = new MemoryAuditLogStore();
      const { deliveryFailures } = createMemoryDataStore();
      for (const days of [100, 89.5, 88.5, 10]) {
        const createdAt = new Date(clock.now().getTime() - days * DAY_MS).toISOString();
        await audit.append([anAuditEntry({ sessionName: `${days}d`, createdAt })]);
        await deliveryFailures.insert(aDeliveryFailure({ event: `${days}d`, createdAt }));
      }
      const left = async () => [
        (await audit.query({}, { limit: 10, offset: 0 })).data.map((entry) => entry.sessionName),
        (await deliveryFailures.list({}, { limit: 10, offset: 0 })).map((failure) => failure.event),
      ];
      /** Moves the gateway's clock and the timers together. */
      const pass = async (ms: number) => {
        clock.advance(ms);
        await jest.advanceTimersByTimeAsync(ms);
        await settled();
      };
      const stop = scheduleRetention(
        retentionJobs({ audit, deliveryFailures }, clock, { audit: 90, deliveryFailures: 90 }),
        silentLogger,
      );
      await settled();
      expect(await left()).toEqual([
        ['10d', '88.5d', '89.5d'],
        ['10d', '88.5d', '89.5d'],
      ]);
      await pass(DAY_MS - 1);
      expect(await left()).toEqual([
        ['10d', '88.5d', '89.5d'],
        ['10d', '88.5d', '89.5d'],
      ]);
      await pass(1);
      expect(await left()).toEqual([
        ['10d', '88.5d'],
        ['10d', '88.5d'],
      ]);
      await pass(DAY_MS);
      expect(await left()).toEqual([['10d'], ['10d']]);
      stop();
      await pass(100 * DAY_MS);
      expect(await left()).toEqual([['10d'], ['10d']]);
    });
  });

  it('schedules on a timer that does not keep the process alive', () => {
    const setInterval = jest.spyOn(globalThis, 'setInterval');
    try {
      const stop = scheduleRetention([{ name: 'a', retentionDays: 1, run: async () => 0 }], silentLogger);
      stop();
      const timer = setInterval.mock.results[0]?.value as NodeJS.Timeout;
      expect(setInterval).toHaveBeenCalledWith(expect.any(Function), DAY_MS);
      expect(timer.hasRef()).toBe(false);
    } finally {
      setInterval.mockRestore();
    }
  });
});
