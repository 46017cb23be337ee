/**
 * What a session publishes of what the network reports besides messages and its own status: a call ringing
 * (incoming-calls.ts), a presence of a chat it subscribed to (`presence.update`; the engine keeps the last one for
 * `GET …/presence/{chatId}`) and a change of a group (group-updates.ts), each naming people by both ids
 * (shared/domain/person-ids.ts).
 */

import type { EngineSession, MessagingEngine } from '#host/engines/engine.port.js';
import type { EngineEventHandlers } from '#host/engines/engine-events.js';
import type { MessageSink } from '#host/messages/message-sink.js';
import type { ChatPresence } from '#shared/domain/chat-presence.js';
import type { GatewayEventMap } from '#shared/domain/events.js';
import type { PersonLookup } from '#shared/domain/person-ids.js';
import type { Logger } from '#shared/ports/logger.port.js';
import { publishGroupChange } from './group-updates.js';
import { answerIncomingCall, publishCallEnd } from './incoming-calls.js';
import type { SessionStatusWriter } from './status-writer.js';

export interface PresenceDeps {
  publish(event: 'presence.update', data: GatewayEventMap['presence.update']): Promise<void>;
  people(ids: string[]): Promise<PersonLookup>;
}

export async function publishPresence(
  sessionId: string,
  presence: ChatPresence,
  deps: PresenceDeps,
): Promise<void> {
  const people = await deps.people(presence.participants.map((participant) => participant.id));
  await deps.publish('presence.update', {
    sessionId,
    chatId: presence.chatId,
    participants: presence.participants.map((participant) => ({
      ...participant,
      person: people(participant.id),
    })),
    observedAt: presence.observedAt,
  });
}

/** What a runner's calls and presence publish with: its status writer, and the people they name by both ids. */
export function reportingDeps(
  deps: { logger: Logger; sink: Pick<MessageSink, 'people'> },
  writer: Pick<SessionStatusWriter, 'publish'>,
  sessionId: string,
) {
  return {
    logger: deps.logger,
    publish: writer.publish.bind(writer),
    people: (ids: string[]) => deps.sink.people(sessionId, ids),
  };
}

/** The runner's handlers of calls, presence and group changes, for the engine `live()` says is current. */
export function reportHandlers(
  session: EngineSession,
  engine: () => MessagingEngine | null,
  reporting: ReturnType<typeof reportingDeps>,
  live: () => boolean,
  logError: (error: unknown) => void,
): Pick<EngineEventHandlers, 'callOffered' | 'callEnded' | 'presenceUpdated' | 'groupChanged'> {
  return {
    callEnded: (ended) => live() && void publishCallEnd(session.id, ended, reporting).catch(logError),
    callOffered: (call) =>
      live() && void answerIncomingCall(engine(), session, call, reporting).catch(logError),
    presenceUpdated: (presence) =>
      live() && void publishPresence(session.id, presence, reporting).catch(logError),
    groupChanged: (change) =>
      live() && void publishGroupChange(session.id, change, reporting).catch(logError),
  };
}
