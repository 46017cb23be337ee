/** The host's retention schedule: every job whose retention is on runs at once; a failing job is logged, not thrown. */
import { describe, expect, it } from '@jest/globals';
import { scheduleRetention } from '#host/maintenance.js';
import { silentLogger } from '#shared/ports/logger.port.js';

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
});
