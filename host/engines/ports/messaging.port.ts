/** The messaging port (core: every engine has it): sending. What arrives is reported as engine events. */
import type { OutgoingContent } from '#shared/domain/outgoing-content.js';

/** A message to send: what (one of the outgoing content kinds), to which chat, under which network id. */
export interface OutgoingMessage {
  chatId: string;
  /** The pre-generated network id: the engine sends under this id so a retried command is the same message. */
  waMessageId: string;
  content: OutgoingContent;
  /** The bytes of a media kind's archived file (`content.file`), read by the host before it sends. */
  attachment?: Uint8Array;
  /** The message's own time (epoch seconds) when the gateway wrote it; without it, the engine stamps the send. */
  timestamp?: number;
}

export interface EngineMessaging {
  /** Sends a message; resolves once the network accepted it (epoch-second timestamp of the send). */
  send(message: OutgoingMessage): Promise<{ timestamp: number }>;
}
