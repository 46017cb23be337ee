/**
 * The API thread's end of its MessagePort to the host's thread: a request gets the id its answer comes back with.
 * The answer is parsed on arrival; an AppError the host raised is rebuilt with its status and code. The host's
 * notices of settled messages go to `onSettled`. Should the port
 * close (the host thread is going away), what is still waiting fails as an unavailable host, never hangs.
 */
import type { MessagePort } from 'node:worker_threads';
import {
  type AppError,
  deserializeAppError,
  type ErrorCode,
  type ErrorStatus,
  UnavailableError,
} from '#shared/errors/app-error.js';
import { ApiThreadAnswer, type ApiThreadRequestBody, ApiThreadSettled } from './api-thread-protocol.js';

interface Pending {
  resolve(value: unknown): void;
  reject(error: AppError): void;
}

const hostGone = (cause?: unknown) =>
  new UnavailableError('HOST_UNAVAILABLE', 'The host that runs this session did not answer', { cause });

export class ApiThreadClient {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  /** `onSettled` hears of each message the host settled. */
  constructor(
    private readonly port: MessagePort,
    private readonly onSettled: (sessionId: string, messageId: string) => void = () => undefined,
  ) {
    port.on('message', (raw: unknown) => this.receive(raw));
    port.on('close', () => this.close());
  }

  /** Sends one request and resolves with the host's value (still to be parsed by the caller). */
  request(body: ApiThreadRequestBody): Promise<unknown> {
    if (this.closed) return Promise.reject(hostGone());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.postMessage({ ...body, id });
    });
  }

  /** Fails every request still waiting and refuses new ones. */
  close(): void {
    this.closed = true;
    for (const waiting of this.pending.values()) waiting.reject(hostGone());
    this.pending.clear();
  }

  private receive(raw: unknown): void {
    if ((raw as { kind?: unknown } | null)?.kind === 'settled') {
      const settled = ApiThreadSettled.safeParse(raw);
      if (settled.success) this.onSettled(settled.data.sessionId, settled.data.messageId);
      return;
    }
    const parsed = ApiThreadAnswer.safeParse(raw);
    if (!parsed.success) return;
    const answer = parsed.data;
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (answer.ok) waiting.resolve(answer.value);
    else if (answer.error) {
      waiting.reject(
        deserializeAppError({
          ...answer.error,
          status: answer.error.status as ErrorStatus,
          code: answer.error.code as ErrorCode,
        }),
      );
    } else waiting.reject(hostGone(new Error('the host failed the request')));
  }
}
