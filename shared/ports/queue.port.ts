/**
 * A message queue with SQS semantics, so the embedded queue and SQS are interchangeable: FIFO groups and
 * deduplication, per-message delay, visibility timeout with redelivery, receive counts, and a move to the
 * dead-letter queue once a message has been received `maxReceiveCount` times without being deleted.
 */
export interface OutgoingMessage {
  body: string;
  /** FIFO queues: messages of one group are delivered in order, one in flight at a time. */
  groupId?: string;
  /** FIFO queues: a second send with the same id within 5 minutes is accepted and dropped. */
  dedupId?: string;
  /**
   * Seconds before the message becomes visible (whole seconds, 0–900). Standard queues only in practice: SQS FIFO
   * queues refuse per-message delays, so FIFO producers must not rely on it.
   */
  delaySeconds?: number;
}

export interface ReceivedMessage {
  id: string;
  /** Opaque token for delete/changeVisibility of this receive. */
  receiptHandle: string;
  body: string;
  groupId: string | null;
  /** How many times the message has been received, this time included. */
  receiveCount: number;
}

export interface ReceiveOptions {
  maxMessages?: number;
  visibilityTimeoutSeconds?: number;
  /** Long poll: wait up to this many seconds for a message (0 answers at once). */
  waitTimeSeconds?: number;
  /** Ends a long poll early with an empty answer. */
  signal?: AbortSignal;
}

/**
 * Errors: bad arguments (maxMessages 1–10, waitTimeSeconds 0–20, visibility 0–43200, empty body, FIFO send without
 * groupId) raise ValidationError; `delete` with a stale or unknown handle does nothing, `changeVisibility` with one
 * raises ValidationError. Oldest-first delivery is guaranteed on FIFO queues only (best effort on standard ones).
 */
export interface Queue {
  readonly name: string;
  send(message: OutgoingMessage): Promise<{ id: string }>;
  receive(options?: ReceiveOptions): Promise<ReceivedMessage[]>;
  delete(receiptHandle: string): Promise<void>;
  changeVisibility(receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void>;
  /** Approximate number of messages not yet deleted (visible, in flight or delayed). */
  depth(): Promise<number>;
}
