/** Types and constants shared by the queue contract's files. */
import type { Queue } from '#shared/ports/queue.port.js';
import type { TestClock } from '#tests/helpers/test-clock.js';

/** What the suite asks of an adapter's opener. */
export interface OpenQueueOptions {
  fifo: boolean;
  visibilityTimeoutSeconds: number;
  /** When set, the adapter also opens a dead-letter queue of the same type and answers it as `deadLetters`. */
  maxReceiveCount?: number;
  /** Drives visibility, delay and dedup windows; long polls wait in real time. */
  clock: TestClock;
}

/** A fresh queue (and its dead-letter queue, when asked for), closed after each test. */
export interface OpenedQueue {
  queue: Queue;
  deadLetters?: Queue;
  close(): Promise<void>;
}

export const VISIBILITY_SECONDS = 30;

export interface QueueSuite {
  openQueue(fifo: boolean, maxReceiveCount?: number): Promise<OpenedQueue>;
  behaviour(name: string, fn: () => Promise<void>): void;
  clock(): TestClock;
}
