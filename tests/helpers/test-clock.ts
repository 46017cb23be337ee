import type { Clock } from '#shared/ports/clock.port.js';

/** A clock that stands still until the test moves it, so time windows are tested without sleeping. */
export class TestClock implements Clock {
  private ms: number;

  constructor(start: Date | number = Date.parse('2025-01-01T00:00:00.000Z')) {
    this.ms = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
