/**
 * Authenticates a presented API key for one request: existence (by hash), isActive, expiresAt, allowedIps (fail
 * closed when the client IP is unknown), role, unscoped-only routes, and allowedSessions for the session the
 * route acts on. Every refusal is audited as api_key_auth_failed, stored before the refusal is thrown; success
 * counts usage in memory and is audited as api_key_used at most once per key per minute (the recorder samples
 * it), in the background, so it costs no store write per request.
 */

import type { AuditRecorder } from '#shared/audit/audit-recorder.js';
import type { UsageTracker } from '#shared/auth/usage-tracker.js';
import { isUsable, restricts } from '#shared/domain/api-key.js';
import type { Caller, CallerKey } from '#shared/domain/caller.js';
import { type Role, roleAllows } from '#shared/domain/roles.js';
import { type AppError, ForbiddenError, UnauthorizedError } from '#shared/errors/app-error.js';
import type { ApiKeyStore } from '#shared/ports/api-key-store.port.js';
import type { Clock } from '#shared/ports/clock.port.js';
import { ipInList } from '#shared/security/ip.js';
import { digestsEqual, hashApiKey } from '#shared/security/secrets.js';

export interface AuthenticateDeps {
  apiKeys: ApiKeyStore;
  usage: UsageTracker;
  audit: AuditRecorder;
  clock: Clock;
}

export interface AccessRequirement {
  role: Role;
  unscoped?: boolean;
  /** The session the route acts on, when it is session-scoped. */
  sessionId?: string;
  /**
   * The route says how it meets a key limited to chats (it addresses chats, lists them or names none); a route
   * that does not refuses such a key (shared/domain/chat-scope.ts).
   */
  chats?: boolean;
}

/** Resolves the presented key to a CallerKey or throws 401/403. */
export async function authenticate(
  deps: AuthenticateDeps,
  presentedKey: string | undefined,
  request: Caller,
  requirement: AccessRequirement,
): Promise<CallerKey> {
  // A refusal is stored before the 401/403 goes out: the next request reads it (security-relevant).
  const refuse = async (
    error: AppError,
    keyId: string | null = null,
    keyName: string | null = null,
  ): Promise<never> => {
    await deps.audit.record(request, {
      action: 'api_key_auth_failed',
      severity: 'warn',
      apiKeyId: keyId,
      apiKeyName: keyName,
      sessionId: requirement.sessionId?.slice(0, 36) ?? null,
      statusCode: error.status,
      errorMessage: error.message,
    });
    throw error;
  };

  if (!presentedKey) return refuse(new UnauthorizedError('Missing API key'));
  const hash = hashApiKey(presentedKey);
  const key = await deps.apiKeys.findByHash(hash);
  if (!key || !digestsEqual(key.keyHash, hash)) return refuse(new UnauthorizedError('Invalid API key'));
  const now = deps.clock.now();
  if (!key.isActive) return refuse(new UnauthorizedError('API key is revoked'), key.id, key.name);
  if (!isUsable(key, now)) return refuse(new UnauthorizedError('API key has expired'), key.id, key.name);

  if (key.allowedIps && key.allowedIps.length > 0) {
    if (!request.ip) {
      return refuse(
        new ForbiddenError('FORBIDDEN_IP', 'Client IP could not be determined'),
        key.id,
        key.name,
      );
    }
    if (!ipInList(request.ip, key.allowedIps)) {
      return refuse(
        new ForbiddenError('FORBIDDEN_IP', 'IP address not allowed for this API key'),
        key.id,
        key.name,
      );
    }
  }
  const refusal = accessRefusal(key, requirement);
  if (refusal) return refuse(refusal, key.id, key.name);

  const scoped = restricts(key.allowedSessions);
  deps.usage.record(key.id, now);
  // High-volume (sampled once per key per minute): written in the background, never delaying the request.
  void deps.audit.record(request, { action: 'api_key_used', apiKeyId: key.id, apiKeyName: key.name });
  return {
    id: key.id,
    name: key.name,
    role: key.role,
    allowedSessions: scoped ? key.allowedSessions : null,
    allowedChats: restricts(key.allowedChats) ? key.allowedChats : null,
  };
}

/** 403 FORBIDDEN_SESSION when a key scoped to sessions (a non-empty `allowedSessions`) names another one. */
export function sessionRefusal(
  key: Pick<CallerKey, 'allowedSessions'>,
  sessionId: string,
): ForbiddenError | null {
  return restricts(key.allowedSessions) && !key.allowedSessions?.includes(sessionId)
    ? new ForbiddenError('FORBIDDEN_SESSION', 'API key not authorized for this session')
    : null;
}

/**
 * Why a key of `role` with `allowedSessions` (null or empty: every session) may not do what `requirement` asks, or
 * null when it may: a role too low, a session-scoped key on a route for unscoped keys only, a session outside the
 * key's list (sessionRefusal), or a key limited to chats on a route that neither addresses nor lists chats (the
 * chats an input addresses are checked once it is parsed). `authenticate` audits and throws it; a transport-neutral
 * call checks its caller with it (functions/http/route-call.ts).
 */
export function accessRefusal(
  key: Pick<CallerKey, 'role' | 'allowedSessions' | 'allowedChats'>,
  requirement: AccessRequirement,
): ForbiddenError | null {
  if (!roleAllows(key.role, requirement.role)) {
    return new ForbiddenError('FORBIDDEN_ROLE', `Insufficient permissions. Required: ${requirement.role}`);
  }
  if (requirement.unscoped && restricts(key.allowedSessions)) {
    return new ForbiddenError(
      'FORBIDDEN_SCOPED_KEY',
      'Session-scoped API keys are not permitted on this route',
    );
  }
  const outOfScope = requirement.sessionId === undefined ? null : sessionRefusal(key, requirement.sessionId);
  if (outOfScope) return outOfScope;
  if (!requirement.chats && restricts(key.allowedChats)) {
    return new ForbiddenError('FORBIDDEN_CHAT_RESTRICTED', 'API key is restricted to selected chats');
  }
  return null;
}
