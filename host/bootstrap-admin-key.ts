/**
 * The first admin key. On a first start (no keys at all) an admin key is created: from BOOTSTRAP_ADMIN_KEY when set
 * (deployments that inject a secret), otherwise generated and written once to DATA_DIR/.api-key with mode 0600.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '#shared/config/env.js';
import { ConflictError } from '#shared/errors/app-error.js';
import type { ApiKeyStore } from '#shared/ports/api-key-store.port.js';
import type { Clock } from '#shared/ports/clock.port.js';
import { generateApiKey } from '#shared/security/secrets.js';
import { newKeyRecord } from '#shared/use-cases/api-keys/manage-api-keys.js';

export type BootstrapResult =
  | { status: 'created'; plaintext: string; file: string | null }
  | { status: 'exists'; file: string | null };

async function writeSecretFile(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, content, { mode: 0o600 });
  await fs.chmod(temp, 0o600);
  await fs.rename(temp, file);
}

export async function ensureBootstrapAdminKey(
  apiKeys: ApiKeyStore,
  env: Pick<Env, 'BOOTSTRAP_ADMIN_KEY' | 'BOOTSTRAP_KEY_FILE'>,
  clock: Clock,
): Promise<BootstrapResult> {
  const fileExists = await fs.access(env.BOOTSTRAP_KEY_FILE).then(
    () => true,
    () => false,
  );
  if ((await apiKeys.count()) > 0)
    return { status: 'exists', file: fileExists ? env.BOOTSTRAP_KEY_FILE : null };
  const plaintext = env.BOOTSTRAP_ADMIN_KEY ?? generateApiKey();
  try {
    await apiKeys.create(
      newKeyRecord(plaintext, { name: 'Bootstrap admin key', role: 'admin' }, clock.now()),
    );
  } catch (error) {
    // Several hosts booting at once against shared stores (aws mode) all try to insert the same injected key.
    if (error instanceof ConflictError && env.BOOTSTRAP_ADMIN_KEY) return { status: 'exists', file: null };
    throw error;
  }
  if (env.BOOTSTRAP_ADMIN_KEY) return { status: 'created', plaintext, file: null };
  await writeSecretFile(env.BOOTSTRAP_KEY_FILE, `${plaintext}\n`);
  return { status: 'created', plaintext, file: env.BOOTSTRAP_KEY_FILE };
}
