/**
 * In-memory queue with the semantics of SQS and of the embedded queue (FIFO groups and deduplication, delay,
 * visibility timeout, receive counts, dead-letter moves, long polling): the fake for unit tests. It passes the
 * same contract suite as the real adapters.
 */
import { randomUUID } from 'node:crypto';
import {
  checkLocalQueueAttributes,
  checkLocalReceive,
  checkOutgoing,
  checkVisibility,
  DEDUP_WINDOW_MS,
} from '#shared/adapters/queue-support.js';
import { ValidationError } from '#shared/errors/app-error.js';
import { type Clock, systemClock } from '#shared/ports/clock.port.js';
import type { OutgoingMessage, Queue, ReceivedMessage, ReceiveOptions } from '#shared/ports/queue.port.js';

/** How one queue behaves; the SQS queue attributes of the same names. */
export interface MemoryQueueOptions {
  name: string;
  fifo: boolean;
  visibilityTimeoutSeconds: number;
  /** Receives after which a message goes to `deadLetterQueue` instead of being delivered again. */
  maxReceiveCount?: number;
  deadLetterQueue?: MemoryQueue;
  clock?: Clock;
  /** Long polls re-check this often, so visibility expiry on an injected clock is noticed (default 200). */
  pollIntervalMs?: number;
}

interface StoredMessage {
  id: string;
  body: string;
  groupId: string | null;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
  receiptHandle: string | null;
}

/** A queue held in this process's memory; state is lost with the object. */
export class MemoryQueue implements Queue {
  readonly name: string;
  readonly fifo: boolean;
  private readonly clock: Clock;
  private readonly visibilityMs: number;
  private readonly maxReceiveCount: number | undefined;
  private readonly deadLetterQueue: MemoryQueue | undefined;
  private readonly pollIntervalMs: number;
  /** In arrival order. */
  private messages: StoredMessage[] = [];
  private readonly dedup = new Map<string, { messageId: string; expiresAt: number }>();
  private readonly waiters = new Set<() => void>();

  constructor(options: MemoryQueueOptions) {
    this.name = options.name;
    this.fifo = options.fifo;
    this.clock = options.clock ?? systemClock;
    const attributes = checkLocalQueueAttributes(options);
    this.visibilityMs = attributes.visibilityMs;
    this.pollIntervalMs = attributes.pollIntervalMs;
    if (
      options.deadLetterQueue &&
      (options.deadLetterQueue === this || options.deadLetterQueue.fifo !== this.fifo)
    ) {
      throw new ValidationError('The dead-letter queue must be another queue of the same type');
    }
    this.maxReceiveCount = options.maxReceiveCount;
    this.deadLetterQueue = options.deadLetterQueue;
  }

  async send(message: OutgoingMessage): Promise<{ id: string }> {
    checkOutgoing(message, this);
    const now = this.nowMs();
    const dedupId = this.fifo ? message.dedupId : undefined;
    if (dedupId !== undefined) {
      const first = this.dedup.get(dedupId);
      if (first && first.expiresAt > now) return { id: first.messageId };
    }
    const id = randomUUID();
    this.append({
      id,
      body: message.body,
      groupId: message.groupId ?? null,
      sentAt: now,
      visibleAt: now + (message.delaySeconds ?? 0) * 1000,
      receiveCount: 0,
      receiptHandle: null,
    });
    if (dedupId !== undefined) {
      for (const [key, entry] of this.dedup) if (entry.expiresAt <= now) this.dedup.delete(key);
      this.dedup.set(dedupId, { messageId: id, expiresAt: now + DEDUP_WINDOW_MS });
    }
    return { id };
  }

  async receive(options: ReceiveOptions = {}): Promise<ReceivedMessage[]> {
    const { maxMessages: max, visibilityMs, deadline } = checkLocalReceive(options, this.visibilityMs);
    for (;;) {
      if (options.signal?.aborted) return [];
      const messages = this.take(max, visibilityMs);
      if (messages.length > 0) return messages;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return [];
      await this.waitForWake(Math.min(this.pollIntervalMs, remaining), options.signal);
    }
  }

  async delete(receiptHandle: string): Promise<void> {
    const before = this.messages.length;
    this.messages = this.messages.filter((message) => message.receiptHandle !== receiptHandle);
    // Deleting may unblock a FIFO group.
    if (this.messages.length !== before) this.wake();
  }

  async changeVisibility(receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void> {
    checkVisibility(visibilityTimeoutSeconds);
    const message = this.messages.find((candidate) => candidate.receiptHandle === receiptHandle);
    if (!message)
      throw new ValidationError('The receipt handle is stale or unknown', { details: { queue: this.name } });
    message.visibleAt = this.nowMs() + visibilityTimeoutSeconds * 1000;
    if (visibilityTimeoutSeconds === 0) this.wake();
  }

  async depth(): Promise<number> {
    return this.messages.length;
  }

  private nowMs(): number {
    return this.clock.now().getTime();
  }

  private append(message: StoredMessage): void {
    this.messages.push(message);
    this.wake();
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Marks up to `max` deliverable messages received, moving exhausted ones to the dead-letter queue. */
  private take(max: number, visibilityMs: number): ReceivedMessage[] {
    const now = this.nowMs();
    const taken: ReceivedMessage[] = [];
    for (const message of this.deliverable(now)) {
      if (taken.length >= max) break;
      if (
        this.deadLetterQueue &&
        this.maxReceiveCount !== undefined &&
        message.receiveCount >= this.maxReceiveCount
      ) {
        this.messages = this.messages.filter((candidate) => candidate !== message);
        this.deadLetterQueue.append({ ...message, visibleAt: now, receiveCount: 0, receiptHandle: null });
        continue;
      }
      message.receiveCount += 1;
      message.receiptHandle = randomUUID();
      message.visibleAt = now + visibilityMs;
      taken.push({
        id: message.id,
        receiptHandle: message.receiptHandle,
        body: message.body,
        groupId: message.groupId,
        receiveCount: message.receiveCount,
      });
    }
    return taken;
  }

  /**
   * Visible messages in arrival order. FIFO: a group is skipped from its first hidden message (delayed or in
   * flight) on, and entirely while any of its messages is in flight, so groups are delivered strictly in order.
   */
  private deliverable(now: number): StoredMessage[] {
    const blocked = new Set<string>();
    if (this.fifo) {
      for (const message of this.messages) {
        const inFlight = message.receiveCount > 0 && message.visibleAt > now;
        if (inFlight && message.groupId !== null) blocked.add(message.groupId);
      }
    }
    const result: StoredMessage[] = [];
    for (const message of this.messages) {
      const group = this.fifo ? message.groupId : null;
      if (message.visibleAt > now) {
        if (group !== null) blocked.add(group);
      } else if (group === null || !blocked.has(group)) {
        result.push(message);
      }
    }
    return result;
  }

  /** Resolves after `ms`, on a send or visibility change here, or on abort, whichever comes first. */
  private waitForWake(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) {
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
