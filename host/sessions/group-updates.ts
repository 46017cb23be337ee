/**
 * What a session does with a change the network reported of a group the account is in: published as `group.join`,
 * `group.leave` or `group.update`, the actor and each participant by both ids (shared/domain/person-ids.ts).
 */
import type { GroupChange } from '#host/engines/engine-events.js';
import type { GatewayEventMap } from '#shared/domain/events.js';
import type { PersonLookup } from '#shared/domain/person-ids.js';

export interface GroupEventDeps {
  publish<K extends 'group.join' | 'group.leave' | 'group.update'>(
    event: K,
    data: GatewayEventMap[K],
  ): Promise<void>;
  people(ids: string[]): Promise<PersonLookup>;
}

export async function publishGroupChange(
  sessionId: string,
  change: GroupChange,
  deps: GroupEventDeps,
): Promise<void> {
  const named = change.actorId ? [change.actorId, ...change.participantIds] : change.participantIds;
  const people = await deps.people(named);
  const data = {
    sessionId,
    groupId: change.groupId,
    actorId: change.actorId,
    actor: change.actorId ? people(change.actorId) : null,
    participantIds: change.participantIds,
    participants: change.participantIds.map((id) => people(id)),
    timestamp: change.timestamp,
  };
  if (change.kind === 'update')
    await deps.publish('group.update', { ...data, changes: change.changes ?? {} });
  else await deps.publish(change.kind === 'join' ? 'group.join' : 'group.leave', data);
}
