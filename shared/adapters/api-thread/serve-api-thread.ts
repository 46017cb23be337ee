/**
 * The host thread's end of the API thread's MessagePort: runs each request on the host (HostGateway) or reads the
 * host's metrics, and answers with the request's id; pushes each message the host settles. Inputs are parsed with the operation's schema first; an
 * AppError goes back serialised, anything else as a bare failure whose details stay in this thread's log.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Registry } from 'prom-client';
import type { InProcessMessageOutcomes } from '#shared/adapters/memory/in-process-message-outcomes.js';
import { parseOperationInput } from '#shared/domain/host-rpc.js';
import { AppError, serializeAppError, ValidationError } from '#shared/errors/app-error.js';
import type { HostGateway } from '#shared/ports/host-gateway.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { type ApiThreadAnswer, ApiThreadRequest, type ApiThreadSettled } from './api-thread-protocol.js';

export interface ApiThreadServices {
  host: HostGateway;
  /** The host's send outcomes: each settled message is pushed to the API thread. */
  outcomes: InProcessMessageOutcomes;
  /** The host thread's metrics, merged into the API thread's scrape. */
  metrics: Registry;
  logger: Logger;
}

async function run(request: ApiThreadRequest, services: ApiThreadServices): Promise<unknown> {
  switch (request.kind) {
    case 'host.call':
      return services.host.call(request.operation, parseOperationInput(request.operation, request.input));
    case 'host.stats':
      return services.host.stats(request.sessionIds);
    case 'metrics':
      return services.metrics.getMetricsAsJSON();
  }
}

/** The id of a request too malformed to parse, when it has one: its sender is still told. */
function idOf(raw: unknown): number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
}

/** Answers the API thread's requests on `port`, and tells it of settled messages, until `stop` is called. */
export function serveApiThread(port: MessagePort, services: ApiThreadServices): { stop(): void } {
  const stopForwarding = services.outcomes.forwardTo((sessionId, messageId) =>
    port.postMessage({ kind: 'settled', sessionId, messageId } satisfies ApiThreadSettled),
  );
  const answer = (message: ApiThreadAnswer) => {
    try {
      port.postMessage(message);
    } catch (error) {
      // A value that cannot cross threads is a failure of ours, never a request left waiting.
      services.logger.error({ err: error }, 'API thread answer could not be sent');
      port.postMessage({ id: message.id, ok: false, error: null } satisfies ApiThreadAnswer);
    }
  };
  const fail = (id: number, error: unknown) => {
    if (error instanceof AppError) return answer({ id, ok: false, error: serializeAppError(error) });
    services.logger.error({ err: error }, 'API thread request failed');
    answer({ id, ok: false, error: null });
  };
  port.on('message', (raw: unknown) => {
    const parsed = ApiThreadRequest.safeParse(raw);
    if (!parsed.success) {
      const id = idOf(raw);
      const error = new ValidationError('Not an API thread request', { details: parsed.error.issues });
      if (id === null) services.logger.error({ err: error }, 'unreadable request from the API thread');
      else fail(id, error);
      return;
    }
    const { id } = parsed.data;
    run(parsed.data, services).then(
      (value) => answer({ id, ok: true, value }),
      (error: unknown) => fail(id, error),
    );
  });
  return {
    stop() {
      stopForwarding();
      port.close();
    },
  };
}
