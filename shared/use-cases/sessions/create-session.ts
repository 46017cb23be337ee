import { randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.js';
import {
  type CreateSessionBody,
  type Session,
  type SessionResponse,
  toSessionResponse,
} from '#shared/domain/session.js';
import { ForbiddenError } from '#shared/errors/app-error.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';

/** Creates a session in `created`; a taken name is 409 SESSION_NAME_EXISTS. Setting a proxy needs an admin key. */
export async function createSession(
  deps: Pick<CoreDeps, 'data' | 'audit' | 'clock'>,
  caller: Caller,
  body: CreateSessionBody,
): Promise<SessionResponse> {
  if (body.proxyUrl !== undefined && caller.key?.role !== 'admin') {
    throw new ForbiddenError('FORBIDDEN_ROLE', 'Setting proxyUrl requires an admin key');
  }
  const now = deps.clock.now().toISOString();
  const session: Session = {
    id: randomUUID(),
    name: body.name,
    status: 'created',
    phone: null,
    pushName: null,
    config: body.config ?? {},
    proxyUrl: body.proxyUrl ?? null,
    proxyType: body.proxyType ?? null,
    connectedAt: null,
    lastActiveAt: null,
    lastError: null,
    nodeId: null,
    nodeUrl: null,
    claimedAt: null,
    leaseExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.data.sessions.create(session);
  await deps.audit.record(caller, {
    action: 'session_created',
    sessionId: session.id,
    sessionName: session.name,
  });
  return toSessionResponse(session);
}
