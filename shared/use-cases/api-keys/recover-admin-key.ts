/** The local way back in: a new admin key minted by an operator on the gateway's machine, not through the API. */
import { type ApiKeyResponse, toApiKeyResponse } from '#shared/domain/api-key.js';
import { SYSTEM_CALLER } from '#shared/domain/caller.js';
import { generateApiKey } from '#shared/security/secrets.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { newKeyRecord } from './manage-api-keys.js';

/** Who ran the recovery command, as far as the machine says (for the audit entry). */
export interface RecoveryOrigin {
  host: string | null;
  osUser: string | null;
}

export interface RecoveredAdminKey {
  /** Shown once to the operator; only its hash is stored. */
  plaintext: string;
  key: ApiKeyResponse;
}

/**
 * Creates an unscoped, unrestricted, non-expiring admin key named `name` and audits it as `api_key_created`
 * (severity warn, minted by the local recovery command) before answering. No guard applies: adding an admin key
 * never leaves fewer usable admins, and the point is to work when none is left.
 */
export async function mintRecoveryAdminKey(
  deps: Pick<CoreDeps, 'main' | 'audit' | 'clock'>,
  name: string,
  origin: RecoveryOrigin,
): Promise<RecoveredAdminKey> {
  const plaintext = generateApiKey();
  const key = newKeyRecord(plaintext, { name, role: 'admin' }, deps.clock.now());
  await deps.main.apiKeys.create(key);
  await deps.audit.record(SYSTEM_CALLER, {
    action: 'api_key_created',
    severity: 'warn',
    metadata: {
      targetKeyId: key.id,
      targetKeyName: key.name,
      role: key.role,
      mintedBy: 'local recovery command',
      host: origin.host,
      osUser: origin.osUser,
    },
  });
  return { plaintext, key: toApiKeyResponse(key) };
}
