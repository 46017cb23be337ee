import type { Caller } from '#shared/domain/caller.js';
import type { Role } from '#shared/domain/roles.js';

export interface ValidationResult {
  valid: true;
  role: Role;
  scoped: boolean;
  keyId: string;
  keyName: string;
}

/** Answers what the (already authenticated) key may do; authentication itself refused invalid keys with 401. */
export function describeCallerKey(caller: Caller): ValidationResult {
  const key = caller.key;
  if (!key) throw new Error('describeCallerKey needs an authenticated caller');
  return {
    valid: true,
    role: key.role,
    scoped: key.allowedSessions !== null,
    keyId: key.id,
    keyName: key.name,
  };
}
