/**
 * How a send request learns that the host settled its message (sent, or failed) instead of reading the row over
 * and over: the host tells, the request waits. In the embedded mode a notification inside the process; in aws mode
 * the request asks the session's owner host over the host RPC to answer once the message settles.
 */
export interface MessageOutcomes {
  /**
   * Resolves true once the host settled the message (or `alreadySettled` finds it was already), false when
   * `timeoutMs` passes first or nobody can tell. Never rejects: the caller reads the row either way.
   */
  settled(
    sessionId: string,
    messageId: string,
    timeoutMs: number,
    alreadySettled?: () => Promise<boolean>,
  ): Promise<boolean>;
}

/** The host's side: what the send path calls once a message is no longer pending. */
export interface MessageOutcomeNotifier {
  notify(sessionId: string, messageId: string): void;
}
