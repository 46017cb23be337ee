/**
 * Consumes the command queue: long-polls, parses each message (malformed ones are dropped and logged), runs the
 * typed handler, and deletes the message only when the handler succeeded. A handler that fails leaves the message
 * to reappear after its visibility timeout; the queue moves it to the dead-letter queue after too many receives.
 * One receive can hold several messages of a group (a session's commands on a FIFO queue): they run one after the
 * other in the order received, and a retried failure holds back the rest of its group, which then reappears after
 * it, so a session's sends never overtake each other. Different groups run side by side.
 */
import type { CommandOf, SessionCommand, SessionCommandType } from '#shared/domain/commands.js';
import { AppError } from '#shared/errors/app-error.js';
import type { Metrics } from '#shared/observability/metrics.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { CommandQueue, ReceivedCommand } from '#shared/queue/command-queue.js';

/** One handler per command type; `forwarded` is true when another host passed the command on to this owner. */
export type CommandHandlers = {
  [T in SessionCommandType]: (command: CommandOf<T>, forwarded?: boolean) => Promise<void>;
};

/** Runs the handler of the command's type. */
export function dispatchCommand(
  handlers: CommandHandlers,
  command: SessionCommand,
  forwarded = false,
): Promise<void> {
  const handler = handlers[command.type] as (command: SessionCommand, forwarded: boolean) => Promise<void>;
  return handler(command, forwarded);
}

export interface ConsumerOptions {
  waitTimeSeconds: number;
  visibilityTimeoutSeconds: number;
  maxMessages: number;
}

export class CommandConsumer {
  private readonly abort = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(
    private readonly queue: CommandQueue,
    private readonly handlers: CommandHandlers,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
    private readonly options: ConsumerOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops polling and waits for the messages in hand to finish. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        const received = await this.queue.receive({
          maxMessages: this.options.maxMessages,
          waitTimeSeconds: this.options.waitTimeSeconds,
          visibilityTimeoutSeconds: this.options.visibilityTimeoutSeconds,
          signal,
        });
        await Promise.all([...byGroup(received)].map((items) => this.handleInOrder(items)));
      } catch (error) {
        if (signal.aborted) break;
        this.logger.error({ err: error }, 'command queue receive failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /** Runs a group's messages in order; stops at the first one left for redelivery. */
  private async handleInOrder(items: readonly ReceivedCommand[]): Promise<void> {
    for (const item of items) {
      if (!item.ok) await this.drop(item);
      else if (!(await this.handle(item.command, item.message))) return;
    }
  }

  private async drop(item: { error: string; message: Parameters<CommandQueue['ack']>[0] }): Promise<void> {
    this.logger.error({ messageId: item.message.id, error: item.error }, 'malformed command dropped');
    this.metrics.commandsProcessed.inc({ type: 'unknown', outcome: 'malformed' });
    await this.queue.ack(item.message);
  }

  /** Answers whether the message is done with (handled, or refused for good) rather than left for redelivery. */
  private async handle(
    command: SessionCommand,
    message: Parameters<CommandQueue['ack']>[0],
  ): Promise<boolean> {
    try {
      await dispatchCommand(this.handlers, command);
      await this.queue.ack(message);
      this.metrics.commandsProcessed.inc({ type: command.type, outcome: 'ok' });
      return true;
    } catch (error) {
      // A refusal (4xx) will not change on retry: drop it. Anything else is retried by the queue.
      const permanent = error instanceof AppError && error.status < 500;
      this.logger[permanent ? 'warn' : 'error'](
        { err: error, type: command.type, sessionId: command.sessionId, receiveCount: message.receiveCount },
        permanent ? 'command refused; dropped' : 'command failed; will be retried',
      );
      this.metrics.commandsProcessed.inc({ type: command.type, outcome: permanent ? 'refused' : 'failed' });
      if (permanent) await this.queue.ack(message);
      return permanent;
    }
  }
}

/** The received messages by group, each group in the order received; a message without a group is its own. */
function byGroup(received: readonly ReceivedCommand[]): Iterable<ReceivedCommand[]> {
  const groups = new Map<string, ReceivedCommand[]>();
  for (const item of received) {
    const key =
      item.message.groupId === null ? `message:${item.message.id}` : `group:${item.message.groupId}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups.values();
}
