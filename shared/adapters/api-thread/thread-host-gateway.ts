/**
 * The HostGateway of the API thread, over its MessagePort (api-thread-client.ts): owner-directed operations and
 * engine counts. Results are parsed with the operation's schema, as the host RPC's are. (Send outcomes need no
 * request: the host thread pushes every settled message, see api-thread-protocol.ts.)
 */
import type { z } from 'zod';
import {
  HOST_OPERATIONS,
  type HostOperation,
  type HostOperationInput,
  type HostOperationResult,
} from '#shared/domain/host-operations.js';
import { UnavailableError } from '#shared/errors/app-error.js';
import type { HostGateway, HostStats } from '#shared/ports/host-gateway.port.js';
import type { ApiThreadClient } from './api-thread-client.js';
import { ApiThreadStats } from './api-thread-protocol.js';

export class ThreadHostGateway implements HostGateway {
  constructor(private readonly client: ApiThreadClient) {}

  async call<Op extends HostOperation>(
    operation: Op,
    input: HostOperationInput<Op>,
  ): Promise<HostOperationResult<Op>> {
    const value = await this.client.request({ kind: 'host.call', operation, input });
    return parsed(HOST_OPERATIONS[operation].result, value) as HostOperationResult<Op>;
  }

  async stats(sessionIds?: readonly string[]): Promise<HostStats> {
    const value = await this.client.request({
      kind: 'host.stats',
      ...(sessionIds ? { sessionIds: [...sessionIds] } : {}),
    });
    return parsed(ApiThreadStats, value);
  }
}

/** A result that is not what was asked for is an unusable answer, as the host RPC treats one (never a 500). */
function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new UnavailableError('HOST_UNAVAILABLE', 'The host that runs this session did not answer', {
    cause: result.error,
  });
}
