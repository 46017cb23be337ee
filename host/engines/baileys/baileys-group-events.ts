/**
 * What Baileys tells of the groups the account is in, as group changes: members added, removed, promoted and
 * demoted (`group-participants.update`), the subject, description and settings changed (`groups.update`), and the
 * picture set or removed (a `GROUP_CHANGE_ICON` stub message, the one report of it that names who changed it).
 */
import { type GroupMetadata, WAMessageStubType, type WASocket } from '@whiskeysockets/baileys';
import type { EngineEmitter, GroupChange } from '../engine-events.js';
import { toNeutralJid } from './baileys-jids.js';

const KIND = { add: 'join', remove: 'leave', promote: 'update', demote: 'update' } as const;

/** The neutral id of a participant Baileys reports (an id, or a participant object). */
const idOf = (participant: unknown) =>
  toNeutralJid(
    typeof participant === 'string' ? participant : String((participant as { id?: unknown }).id ?? ''),
  );

/** The changes a `groups.update` entry reports, in the event's terms. */
function changesOf(update: Partial<GroupMetadata>): NonNullable<GroupChange['changes']> {
  const changes: NonNullable<GroupChange['changes']> = {};
  if (update.subject !== undefined) changes.subject = update.subject;
  if (update.desc !== undefined) changes.description = update.desc || null;
  if (update.announce !== undefined) changes.announce = update.announce;
  if (update.restrict !== undefined) changes.locked = update.restrict;
  if (update.ephemeralDuration !== undefined) changes.ephemeralSeconds = update.ephemeralDuration;
  if (update.memberAddMode !== undefined) changes.memberAddMode = update.memberAddMode ? 'all' : 'admins';
  return changes;
}

export function listenForGroupChanges(socket: WASocket, events: EngineEmitter): void {
  socket.ev.on('group-participants.update', ({ id, author, authorPn, participants, action }) => {
    if (action === 'modify') return;
    const timestamp = Math.floor(Date.now() / 1000);
    const change: GroupChange = {
      groupId: toNeutralJid(id),
      actorId: author ? toNeutralJid(authorPn ?? author) : null,
      kind: KIND[action],
      participantIds: participants.map(idOf),
      timestamp,
      ...(action === 'promote' ? { changes: { promoted: true } } : {}),
      ...(action === 'demote' ? { changes: { demoted: true } } : {}),
    };
    events.emit('groupChanged', change);
  });
  socket.ev.on('groups.update', (updates) => {
    for (const update of updates) {
      // Baileys also reports every group it reads (groupFetchAllParticipating) as an update, without an author:
      // only a notification of a change names who made it.
      const author = (update as { author?: string }).author;
      if (!update.id || !author) continue;
      const changes = changesOf(update);
      if (Object.keys(changes).length === 0) continue;
      const authorPn = (update as { authorPn?: string }).authorPn;
      events.emit('groupChanged', {
        groupId: toNeutralJid(update.id),
        actorId: toNeutralJid(authorPn ?? author),
        kind: 'update',
        participantIds: [],
        changes,
        timestamp: Math.floor(Date.now() / 1000),
      });
    }
  });
  socket.ev.on('messages.upsert', ({ messages }) => {
    for (const message of messages) {
      const groupId = message.key.remoteJid;
      if (message.messageStubType !== WAMessageStubType.GROUP_CHANGE_ICON || !groupId) continue;
      // A set names the new picture's id; a removal names none.
      const set = (message.messageStubParameters?.length ?? 0) > 0;
      const author = message.participant ?? message.key.participant;
      events.emit('groupChanged', {
        groupId: toNeutralJid(groupId),
        actorId: author ? toNeutralJid(author) : null,
        kind: 'update',
        participantIds: [],
        changes: { picture: set ? 'set' : 'removed' },
        timestamp: Math.floor(Date.now() / 1000),
      });
    }
  });
}
