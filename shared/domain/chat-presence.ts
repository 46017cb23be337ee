/**
 * Presence: what the network last told of the people of a chat (online, typing, recording, last seen), to a device
 * that subscribed to it. Held in memory only (spec: chat presence), by the engine of the session.
 */
import { z } from 'zod';

export const PRESENCE_STATES = ['available', 'unavailable', 'composing', 'recording', 'paused'] as const;
export const PresenceState = z.enum(PRESENCE_STATES);
export type PresenceState = z.infer<typeof PresenceState>;

/** One person of the chat: their id (neutral form), what they show and, when offline, when last seen. */
export const PresenceParticipant = z.object({
  id: z.string(),
  state: PresenceState,
  /** Epoch seconds; null when the network did not tell (or the person hides it). */
  lastSeen: z.number().int().nullable(),
});
export type PresenceParticipant = z.infer<typeof PresenceParticipant>;

export const ChatPresence = z
  .object({
    chatId: z.string(),
    participants: z.array(PresenceParticipant),
    /** When the engine heard it. */
    observedAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'ChatPresence' });
export type ChatPresence = z.infer<typeof ChatPresence>;
