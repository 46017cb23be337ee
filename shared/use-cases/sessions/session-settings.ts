/**
 * A session's settings that a start reads (its `config` keys and its proxy): read resolved or masked, changed in the
 * row only. A running engine keeps what it started with; the change applies from the session's next start.
 */
import type { Caller } from '#shared/domain/caller.js';
import {
  mergeSessionConfig,
  type ResolvedSessionConfig,
  resolveSessionConfig,
  type UpdateSessionConfigBody,
} from '#shared/domain/session-config.js';
import {
  parseProxyUrl,
  type SessionProxyResponse,
  toSessionProxyResponse,
  type UpdateSessionProxyBody,
} from '#shared/domain/session-proxy.js';
import { ConflictError, NotFoundError } from '#shared/errors/app-error.js';
import type { SessionPatch, SessionUpdateOptions } from '#shared/ports/session-store.port.js';
import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import { loadSession } from './load-session.js';

type SettingsDeps = Pick<CoreDeps, 'data' | 'clock'>;

/** The config keys the gateway reads, with the values the next start uses. */
export async function getSessionConfig(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  id: string,
): Promise<ResolvedSessionConfig> {
  return resolveSessionConfig((await loadSession(deps.data.sessions, caller, id)).config);
}

/**
 * Merges `patch` into the stored config (null clears a key; unread keys stay). The write holds only if the config
 * is still the one read: a concurrent change answers 409 CONFLICT rather than being undone.
 */
export async function updateSessionConfig(
  deps: SettingsDeps,
  caller: Caller,
  id: string,
  patch: UpdateSessionConfigBody,
): Promise<ResolvedSessionConfig> {
  const session = await loadSession(deps.data.sessions, caller, id);
  const config = mergeSessionConfig(session.config, patch);
  await write(deps, id, { config }, { expectConfig: session.config });
  return resolveSessionConfig(config);
}

/** The session's proxy, masked: type and host:port, whether it has credentials, never the URL. */
export async function getSessionProxy(
  deps: Pick<CoreDeps, 'data'>,
  caller: Caller,
  id: string,
): Promise<SessionProxyResponse> {
  return toSessionProxyResponse(await loadSession(deps.data.sessions, caller, id));
}

/** Sets (or with null removes) the session's proxy; `proxyType` follows the URL's scheme. Answers the masked view. */
export async function updateSessionProxy(
  deps: SettingsDeps,
  caller: Caller,
  id: string,
  body: UpdateSessionProxyBody,
): Promise<SessionProxyResponse> {
  await loadSession(deps.data.sessions, caller, id);
  const proxyType = parseProxyUrl(body.proxyUrl)?.type ?? null;
  await write(deps, id, { proxyUrl: body.proxyUrl, proxyType });
  return toSessionProxyResponse(body);
}

async function write(
  deps: SettingsDeps,
  id: string,
  patch: SessionPatch,
  options: SessionUpdateOptions = {},
): Promise<void> {
  const result = await deps.data.sessions.update(
    id,
    { ...patch, updatedAt: deps.clock.now().toISOString() },
    options,
  );
  if (result.outcome === 'not_found') throw new NotFoundError(`Session '${id}' not found`);
  if (result.outcome === 'conflict') {
    throw new ConflictError('CONFLICT', 'The session config changed concurrently; read it again and retry');
  }
}
