/**
 * What a session does with a presence the network reported for a chat it subscribed to: published as
 * `presence.update`, each person of the chat by both ids (shared/domain/person-ids.ts). The engine keeps the last
 * one for `GET …/presence/{chatId}`.
 */
import type { MessageSink } from '#host/messages/message-sink.js';
import type { ChatPresence } from '#shared/domain/chat-presence.js';
import type { GatewayEventMap } from '#shared/domain/events.js';
import type { PersonLookup } from '#shared/domain/person-ids.js';
import type { Logger } from '#shared/ports/logger.port.js';
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
