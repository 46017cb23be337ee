/**
 * The host RPC client over HTTP: one POST to `<nodeUrl>/rpc` with the shared token as a bearer credential, a
 * deadline per call, and both halves of the answer parsed with zod. Anything that is not a well-formed answer from
 * a host (connection refused, timeout, a proxy's HTML error page) becomes HOST_UNAVAILABLE, never a 500.
 */
import {
  HOST_OPERATIONS,
  type HostOperation,
  type HostOperationInput,
  type HostOperationResult,
} from '#shared/domain/host-operations.js';
import { HOST_RPC_PATH, HostRpcError } from '#shared/domain/host-rpc.js';
import {
  deserializeAppError,
  type ErrorCode,
  type ErrorStatus,
  UnavailableError,
} from '#shared/errors/app-error.js';
import type { HostRpcCallOptions, HostRpcClient } from '#shared/ports/host-rpc.port.js';

export interface HttpHostRpcClientOptions {
  token: string;
  timeoutMs: number;
  /** Injected for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

export class HttpHostRpcClient implements HostRpcClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: HttpHostRpcClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async call<Op extends HostOperation>(
    nodeUrl: string,
    operation: Op,
    input: HostOperationInput<Op>,
    options: HostRpcCallOptions = {},
  ): Promise<HostOperationResult<Op>> {
    const unreachable = (cause: unknown) =>
      new UnavailableError('HOST_UNAVAILABLE', 'The host that runs this session did not answer', { cause });
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(new URL(HOST_RPC_PATH, nodeUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.options.token}` },
        body: JSON.stringify({ operation, input }),
        signal: AbortSignal.timeout(options.timeoutMs ?? this.options.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw unreachable(error);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw unreachable(error);
    }
    if (response.ok) {
      const parsed = HOST_OPERATIONS[operation].result.safeParse((body as { result?: unknown })?.result);
      if (!parsed.success) throw unreachable(parsed.error);
      return parsed.data as HostOperationResult<Op>;
    }
    const error = HostRpcError.safeParse((body as { error?: unknown })?.error);
    if (!error.success) throw unreachable(new Error(`host answered ${response.status}`));
    throw deserializeAppError({
      ...error.data,
      status: error.data.status as ErrorStatus,
      code: error.data.code as ErrorCode,
    });
  }
}
