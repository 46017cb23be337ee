/**
 * The typed command queue: serialises SessionCommands onto any Queue adapter (one FIFO group per session, so a
 * session's commands run in order) and parses what it receives with zod.
 */
import { type SessionCommand, SessionCommand as SessionCommandSchema } from '#shared/domain/commands.js';
import { newRecordId } from '#shared/domain/record-id.js';
import type { Queue, ReceivedMessage, ReceiveOptions } from '#shared/ports/queue.port.js';

export type ReceivedCommand =
  | { ok: true; command: SessionCommand; message: ReceivedMessage }
  | { ok: false; error: string; message: ReceivedMessage };

export class CommandQueue {
  constructor(private readonly queue: Queue) {}

  /** Enqueues a command; `dedupId` makes a retried enqueue of the same intent a no-op (5-minute window). */
  async send(
    command: SessionCommand,
    options: { dedupId?: string; delaySeconds?: number } = {},
  ): Promise<string> {
    const { id } = await this.queue.send({
      body: JSON.stringify(command),
      groupId: command.sessionId,
      dedupId: options.dedupId ?? newRecordId(),
      ...(options.delaySeconds === undefined ? {} : { delaySeconds: options.delaySeconds }),
    });
    return id;
  }

  async receive(options: ReceiveOptions): Promise<ReceivedCommand[]> {
    const messages = await this.queue.receive(options);
    return messages.map((message) => {
      let raw: unknown;
      try {
        raw = JSON.parse(message.body);
      } catch {
        return { ok: false, error: 'body is not JSON', message };
      }
      const parsed = SessionCommandSchema.safeParse(raw);
      return parsed.success
        ? { ok: true, command: parsed.data, message }
        : { ok: false, error: parsed.error.message, message };
    });
  }

  ack(message: ReceivedMessage): Promise<void> {
    return this.queue.delete(message.receiptHandle);
  }

  /** Makes the message visible again after `seconds` (backoff before a retry). */
  retryLater(message: ReceivedMessage, seconds: number): Promise<void> {
    return this.queue.changeVisibility(message.receiptHandle, seconds);
  }

  depth(): Promise<number> {
    return this.queue.depth();
  }
}
