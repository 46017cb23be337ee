import type { Caller } from '#shared/domain/caller.js';
import type { DataStore } from '#shared/ports/stores.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';
import { assertNoTeardownPending } from './teardown-fence.js';

/**
 * Deletes the rows a session owns in the stores without a cascade (DynamoDB, memory), side by side: messages,
 * webhooks, rules, templates, send keys, identity aliases, chats, send pacing. Batches, media and the session row
 * are the caller's (they go after these, in an order of its own).
 */
export async function deleteSessionRows(data: DataStore, id: string): Promise<void> {
  await Promise.all(
    [
      data.messages,
      data.messageStats,
      data.webhooks,
      data.automationRules,
      data.templates,
      data.sendIdempotency,
      data.identities,
      data.chats,
      data.sendPacing,
    ].map((store) => store.deleteBySession(id)),
  );
}

/**
 * Deletes a session: refusals (teardown pending, another owner) come first; only then is the engine stopped, the
 * credentials wiped, its archived media removed and the row removed.
 */
export async function deleteSession(
  deps: Pick<CoreDeps, 'data' | 'media' | 'host' | 'audit' | 'clock'>,
  caller: Caller,
  id: string,
): Promise<void> {
  const session = await loadSession(deps.data.sessions, caller, id);
  await assertNoTeardownPending(deps.data.fences, deps.clock, session.name);
  await deps.host.call('session.discard', { sessionId: id });
  // Stores with a cascade (SQLite) have nothing left to delete here; the others (DynamoDB) do, side by side: the
  // longer this takes, the longer a start that raced the delete finds the row still there. The session row goes
  // last, so a failure part-way leaves a session that a retried delete finishes.
  await deleteSessionRows(deps.data, id);
  // After the rows that point at them: a failure part-way never leaves a row whose media is gone.
  await deps.media.deleteBySession(id);
  await deps.data.batches.deleteBySession(id);
  await deps.data.sessions.delete(id);
  await deps.audit.record(caller, { action: 'session_deleted', sessionId: id, sessionName: session.name });
}
