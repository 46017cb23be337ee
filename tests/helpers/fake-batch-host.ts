/**
 * What the batch runner works on, in memory, for unit tests: the memory data store with one ready session, and a
 * fake host behind the command queue that carries out each `message.send` a moment later (sent, or failed for a
 * refused chat), records what went out and tells the outcome, as the real host's send path does. Delays do not
 * wait (each gives the event loop a turn, as a timer would); hooks let a test act at a send or a delay.
 */
import type { BatchRunnerDeps } from '#host/batches/batch-runner.js';
import { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { createMemoryDataStore } from '#shared/adapters/memory/memory-stores.js';
import { SessionCommand } from '#shared/domain/commands.js';
import type { MessageBatch } from '#shared/domain/message-batch.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import type { Queue } from '#shared/ports/queue.port.js';
import { CommandQueue } from '#shared/queue/command-queue.js';
import { aBatch, aSession } from './builders.js';
import { TestClock } from './test-clock.js';

export class FakeBatchHost {
  readonly data = createMemoryDataStore();
  readonly outcomes = new InProcessMessageOutcomes();
  readonly session = aSession({ status: 'ready', phone: '15550009999' });
  /** What went out, in order: chat and text. */
  sent: { chatId: string; text: string }[] = [];
  /** Chats whose sends fail. */
  readonly refused = new Set<string>();
  /** The delays the runner asked for. */
  readonly sleeps: number[] = [];
  /** Whether the session runs "here". */
  local = true;
  /** Runs when the host takes a send command, before it carries it out. */
  onSendCommand: (() => Promise<void>) | null = null;
  /** Runs when the runner starts a delay. */
  onSleep: (() => Promise<void>) | null = null;
  readonly deps: BatchRunnerDeps;

  constructor() {
    this.deps = {
      send: {
        data: this.data,
        commands: new CommandQueue(this.queue()),
        clock: new TestClock(),
        logger: silentLogger,
        outcomes: this.outcomes,
      },
      isLocal: () => this.local,
      sleep: async (ms) => {
        this.sleeps.push(ms);
        await this.onSleep?.();
        await new Promise((resolve) => setImmediate(resolve));
      },
      random: () => 0.5,
      pollMs: 5,
    };
  }

  /** Stores the session; answers the host. */
  async start(): Promise<this> {
    await this.data.sessions.create(this.session);
    return this;
  }

  /** A stored batch of the session (`items` texts unless `overrides.messages` says otherwise). */
  async stored(overrides: Partial<MessageBatch> = {}, items = 3): Promise<MessageBatch> {
    const batch = aBatch({ sessionId: this.session.id, ...overrides }, items);
    await this.data.batches.create(batch);
    return batch;
  }

  /** The batch as stored now. */
  async reread(batch: MessageBatch): Promise<MessageBatch> {
    const found = await this.data.batches.find(this.session.id, batch.batchId);
    if (!found) throw new Error(`batch ${batch.batchId} is gone`);
    return found;
  }

  private queue(): Queue {
    let ids = 0;
    return {
      name: 'commands',
      send: async (message) => {
        const command = SessionCommand.parse(JSON.parse(message.body));
        setImmediate(() => void this.carryOut(command));
        ids += 1;
        return { id: String(ids) };
      },
      receive: async () => [],
      delete: async () => undefined,
      changeVisibility: async () => undefined,
      depth: async () => 0,
    };
  }

  private async carryOut(command: SessionCommand): Promise<void> {
    if (command.type !== 'message.send') return;
    await this.onSendCommand?.();
    const row = await this.data.messages.findById(command.sessionId, command.messageId);
    if (!row?.waMessageId) return;
    if (this.refused.has(row.chatId)) {
      await this.data.messages.advanceStatus(row.sessionId, row.waMessageId, 'failed');
    } else {
      this.sent.push({ chatId: row.chatId, text: row.body ?? '' });
      // As the real host: the message goes out under the time it was written, if it has one.
      await this.data.messages.advanceStatus(
        row.sessionId,
        row.waMessageId,
        'sent',
        row.timestamp ?? 1_700_000_000,
      );
    }
    this.outcomes.notify(row.sessionId, row.id);
  }
}
