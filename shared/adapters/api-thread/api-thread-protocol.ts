/**
 * What the API thread (API_THREAD=true: the embedded API in a worker thread of its own) asks the host's thread over
 * their MessagePort: owner-directed operations, engine counts, and the host's metrics for one scrape; and what the
 * host tells it unasked: that a message settled. Requests are
 * parsed on arrival like any boundary input; answers carry an AppError serialised with its status and code, as the
 * host RPC does between processes.
 */
import { z } from 'zod';
import { HOST_OPERATION_NAMES, type HostOperation } from '#shared/domain/host-operations.js';
import { HostRpcError } from '#shared/domain/host-rpc.js';

const RequestId = z.number().int().nonnegative();

export const ApiThreadRequest = z.discriminatedUnion('kind', [
  z.strictObject({
    id: RequestId,
    kind: z.literal('host.call'),
    operation: z.enum(HOST_OPERATION_NAMES as [HostOperation, ...HostOperation[]]),
    input: z.unknown(),
  }),
  z.strictObject({
    id: RequestId,
    kind: z.literal('host.stats'),
    sessionIds: z.array(z.string()).optional(),
  }),
  z.strictObject({ id: RequestId, kind: z.literal('metrics') }),
]);
export type ApiThreadRequest = z.output<typeof ApiThreadRequest>;

/** A request as the API thread writes it (its id is added by the client). */
export type ApiThreadRequestBody = ApiThreadRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

export const ApiThreadAnswer = z.discriminatedUnion('ok', [
  z.strictObject({ id: RequestId, ok: z.literal(true), value: z.unknown() }),
  // `error` is null for a failure that was not an AppError: its internals stay in the host's log.
  z.strictObject({ id: RequestId, ok: z.literal(false), error: HostRpcError.nullable() }),
]);
export type ApiThreadAnswer = z.output<typeof ApiThreadAnswer>;

/**
 * What the host thread tells the API thread unasked: a message settled (sent or failed), so a send request waiting
 * for it answers at once. Pushed for every settled message: cheaper for the busy host thread than a request per send.
 */
export const ApiThreadSettled = z.strictObject({
  kind: z.literal('settled'),
  sessionId: z.string(),
  messageId: z.string(),
});
export type ApiThreadSettled = z.output<typeof ApiThreadSettled>;

/** The host's engine count (HostGateway.stats) as it crosses the port. */
export const ApiThreadStats = z.strictObject({ activeEngines: z.number().int().nonnegative() });

/** One metric of prom-client's `getMetricsAsJSON()`, as far as the scrape's aggregation reads it. */
export const MetricJson = z.looseObject({
  name: z.string(),
  help: z.string(),
  type: z.string(),
  // Any number, NaN and the infinities included (a gauge not yet measured is NaN), which z.number() refuses.
  values: z.array(
    z.looseObject({
      value: z.custom<number>((value) => typeof value === 'number'),
      labels: z.record(z.string(), z.unknown()),
    }),
  ),
});
