/** The host's handlers of the message operations (shared/domain/host-operations.ts). */
import type { HostOperationHandlers } from '#shared/domain/host-operations.js';
import type { MessageOutcomes } from '#shared/ports/message-outcomes.port.js';
import type { MessageStore } from '#shared/ports/message-store.port.js';

export interface MessageOperationContext {
  messages: MessageStore;
  /** This host's outcomes, notified by its send path. */
  outcomes: MessageOutcomes;
}

export function messageOperations({
  messages,
  outcomes,
}: MessageOperationContext): Pick<HostOperationHandlers, 'message.awaitOutcome'> {
  return {
    'message.awaitOutcome': async ({ sessionId, messageId, timeoutMs }) => ({
      settled: await outcomes.settled(sessionId, messageId, timeoutMs, async () => {
        const message = await messages.findById(sessionId, messageId);
        return message !== null && message.status !== 'pending';
      }),
    }),
  };
}
