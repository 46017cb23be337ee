/**
 * MessageOutcomes across processes (aws mode, and the embedded mode with several nodes): the send request asks the
 * session's owner host, over the host RPC, to answer once the message settles (`message.awaitOutcome`). One RPC
 * round trip per send, held open at most the wait, instead of reading the row every few milliseconds; the owner
 * checks the row itself after it starts listening, so an outcome that came first is not missed. Without a live
 * owner, or when it does not answer, the request simply reads the row as it stands.
 */
import type { Clock } from '#shared/ports/clock.port.js';
import type { HostRpcClient } from '#shared/ports/host-rpc.port.js';
import type { Logger } from '#shared/ports/logger.port.js';
import type { MessageOutcomes } from '#shared/ports/message-outcomes.port.js';
import { liveOwnerUrl, type SessionStore } from '#shared/ports/session-store.port.js';

/** Time beyond the wait for the owner's answer to cross the network. */
const ANSWER_MARGIN_MS = 2_000;

export interface HostRpcMessageOutcomesDeps {
  sessions: SessionStore;
  clock: Clock;
  rpc: HostRpcClient;
  logger: Logger;
}

export class HostRpcMessageOutcomes implements MessageOutcomes {
  constructor(private readonly deps: HostRpcMessageOutcomesDeps) {}

  async settled(sessionId: string, messageId: string, timeoutMs: number): Promise<boolean> {
    const session = await this.deps.sessions.findById(sessionId);
    const owner = session ? liveOwnerUrl(session, this.deps.clock.now()) : null;
    if (!owner) return false;
    try {
      const answer = await this.deps.rpc.call(
        owner,
        'message.awaitOutcome',
        { sessionId, messageId, timeoutMs },
        { timeoutMs: timeoutMs + ANSWER_MARGIN_MS },
      );
      return answer.settled;
    } catch (error) {
      this.deps.logger.warn({ err: error, sessionId }, 'the owner did not tell the outcome of a send');
      return false;
    }
  }
}
