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

export const SessionCommand = z.discriminatedUnion('type', [StartSessionCommand, SendMessageCommand]);
export type SessionCommand = z.infer<typeof SessionCommand>;
export type SessionCommandType = SessionCommand['type'];
export type CommandOf<T extends SessionCommandType> = Extract<SessionCommand, { type: T }>;
