/**
 * Consumes the command queue: long-polls, parses each message (malformed ones are dropped and logged), runs the
 * typed handler, and deletes the message only when the handler succeeded. A handler that fails leaves the message
 * to reappear after its visibility timeout; the queue moves it to the dead-letter queue after too many receives.
 * One receive can hold several messages of a group (a session's commands on a FIFO queue): they run one after the
 * other in the order received, and a retried failure holds back the rest of its group, which then reappears after
 * it, so a session's sends never overtake each other. Consecutive sends of a group go to the send-run handler
 * together when there is one (the host's: sent in order, their outcomes written in one go). Different groups run
 * side by side.
 */
import type { CommandOf, SessionCommand, SessionCommandType } from '#shared/domain/commands.js';
import { AppError } from '#shared/errors/app-error.js';
import type { Metrics } from '#shared/observability/metrics.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { ReceivedMessage } from '#shared/ports/queue.port.js';
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

/** How a run of sends ended: the commands done with, in order, and why the run stopped before the rest, if it did. */
export interface SendRunResult {
  done: number;
  error?: unknown;
}

/**
 * Carries out consecutive `message.send` commands of one session, in order; stops at the first that must be retried
 * (see SendRunResult).
 */
export type SendRunHandler = (commands: CommandOf<'message.send'>[]) => Promise<SendRunResult>;

type SendItem = Extract<ReceivedCommand, { ok: true }> & { command: CommandOf<'message.send'> };

const isSend = (item: ReceivedCommand | undefined, sessionId: string): item is SendItem =>
  item?.ok === true && item.command.type === 'message.send' && item.command.sessionId === sessionId;

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
    private readonly sendRun?: SendRunHandler,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /**
   * Stops polling and waits for the commands under way to finish; a group's commands not yet begun are handed back
   * to the queue.
   */
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

  /**
   * Runs a group's messages in order; stops at the first one left for redelivery. The messages done with are
   * deleted together at the end, in one commit of the embedded queue rather than one per message: a message
   * handled but not yet deleted when the process dies comes back, and its handler finds it done (a send's row is
   * no longer pending).
   */
  private async handleInOrder(items: readonly ReceivedCommand[]): Promise<void> {
    const done: ReceivedMessage[] = [];
    let next = 0;
    while (next < items.length) {
      const { count, goOn } = await this.handleAt(items, next);
      for (const item of items.slice(next, next + count)) done.push(item.message);
      next += count;
      if (!goOn || this.abort.signal.aborted) break;
    }
    // Stopping (SIGTERM): what was received but not begun goes back to the queue at once (visibility 0), for the
    // next start or another host, rather than waiting out its visibility timeout; what had begun was finished.
    const handBack = this.abort.signal.aborted ? items.slice(next) : [];
    await Promise.all([
      ...done.map((message) => this.queue.ack(message)),
      ...handBack.map(({ message }) =>
        this.queue.retryLater(message, 0).catch((error: unknown) => {
          this.logger.warn(
            { err: error, messageId: message.id },
            'command not handed back; it reappears later',
          );
        }),
      ),
    ]);
  }

  /**
   * Handles the item at `start`, or the run of sends that starts there; answers how many items are done with and
   * whether the rest of the group may go on.
   */
  private async handleAt(
    items: readonly ReceivedCommand[],
    start: number,
  ): Promise<{ count: number; goOn: boolean }> {
    const item = items[start] as ReceivedCommand;
    if (!item.ok) {
      this.drop(item);
      return { count: 1, goOn: true };
    }
    const sendRun = this.sendRun;
    const run: SendItem[] = [];
    if (sendRun && isSend(item, item.command.sessionId)) {
      for (let i = start; isSend(items[i], item.command.sessionId); i++) run.push(items[i] as SendItem);
    }
    if (!sendRun || run.length < 2) {
      const handled = await this.handle(item.command, item.message);
      return { count: handled ? 1 : 0, goOn: handled };
    }
    const { done, error } = await sendRun(run.map((send) => send.command)).catch(
      (thrown: unknown): SendRunResult => ({ done: 0, error: thrown }),
    );
    for (const sent of run.slice(0, done)) this.processed(sent.command, 'ok');
    if (error === undefined) return { count: done, goOn: true };
    const failed = run[done] as SendItem;
    const permanent = this.failed(failed.command, failed.message, error);
    return { count: done + (permanent ? 1 : 0), goOn: permanent };
  }

  private drop(item: { error: string; message: ReceivedMessage }): void {
    this.logger.error({ messageId: item.message.id, error: item.error }, 'malformed command dropped');
    this.metrics.commandsProcessed.inc({ type: 'unknown', outcome: 'malformed' });
  }

  /** Answers whether the message is done with (handled, or refused for good) rather than left for redelivery. */
  private async handle(command: SessionCommand, message: ReceivedMessage): Promise<boolean> {
    try {
      await dispatchCommand(this.handlers, command);
      this.processed(command, 'ok');
      return true;
    } catch (error) {
      return this.failed(command, message, error);
    }
  }

  /** Logs a failed command; answers whether it is refused for good (4xx: will not change on retry) and dropped. */
  private failed(command: SessionCommand, message: ReceivedMessage, error: unknown): boolean {
    const permanent = error instanceof AppError && error.status < 500;
    this.logger[permanent ? 'warn' : 'error'](
      { err: error, type: command.type, sessionId: command.sessionId, receiveCount: message.receiveCount },
      permanent ? 'command refused; dropped' : 'command failed; will be retried',
    );
    this.processed(command, permanent ? 'refused' : 'failed');
    return permanent;
  }

  private processed(command: SessionCommand, outcome: 'ok' | 'refused' | 'failed'): void {
    this.metrics.commandsProcessed.inc({ type: command.type, outcome });
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
