/**
 * Commands the functions put on the command queue for a host to carry out. A discriminated union parsed with zod
 * when it is received, so a malformed message is refused at the boundary.
 */
import { z } from 'zod';
import { Uuid } from './common.js';

export const StartSessionCommand = z.object({
  type: z.literal('session.start'),
  sessionId: Uuid,
  /** Why: a caller's start, or the host resuming a session that was running before a restart. */
  reason: z.enum(['requested', 'resume']),
  requestedAt: z.iso.datetime({ offset: true }),
});

/** Send the stored outgoing message `messageId` (its row carries the text and the pre-generated network id). */
export const SendMessageCommand = z.object({
  type: z.literal('message.send'),
  sessionId: Uuid,
  messageId: Uuid,
  requestedAt: z.iso.datetime({ offset: true }),
});

/**
 * Run the session's message batch `batchId` (its stored row says what to send and how far it got). The host that runs
 * the session sends it item by item; running it again where it already runs, or once it finished, does nothing.
 */
export const RunBatchCommand = z.object({
  type: z.literal('batch.run'),
  sessionId: Uuid,
  batchId: z.string().min(1).max(100),
  requestedAt: z.iso.datetime({ offset: true }),
});

export const SessionCommand = z.discriminatedUnion('type', [
  StartSessionCommand,
  SendMessageCommand,
  RunBatchCommand,
]);
export type SessionCommand = z.infer<typeof SessionCommand>;
export type SessionCommandType = SessionCommand['type'];
export type CommandOf<T extends SessionCommandType> = Extract<SessionCommand, { type: T }>;
