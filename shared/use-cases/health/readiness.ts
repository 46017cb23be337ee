import type { CoreDeps } from '#shared/use-cases/core-deps.js';
import type { DrainSignal } from './drain-signal.js';

type Probe = { status: 'up' | 'down' };
export interface Readiness {
  status: 'ok' | 'error';
  /** `shutdown` only while the process drains (openwa-facts §1.11). */
  details: { mainDatabase: Probe; dataDatabase: Probe; shutdown?: { status: 'draining' } };
}

const probe = async (ping: () => Promise<void>, timeoutMs: number): Promise<Probe> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
  });
  try {
    await Promise.race([ping(), timeout]);
    return { status: 'up' };
  } catch {
    return { status: 'down' };
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Both stores answer a trivial query within the timeout and the process is not draining: ok; otherwise error
 * (served as 503), with `shutdown: draining` once a shutdown began, so traffic moves elsewhere while work finishes.
 */
export async function checkReadiness(
  deps: Pick<CoreDeps, 'main' | 'data'> & { drain?: DrainSignal },
  timeoutMs = 3000,
): Promise<Readiness> {
  const [mainDatabase, dataDatabase] = await Promise.all([
    probe(() => deps.main.ping(), timeoutMs),
    probe(() => deps.data.ping(), timeoutMs),
  ]);
  if (deps.drain?.draining) {
    return { status: 'error', details: { mainDatabase, dataDatabase, shutdown: { status: 'draining' } } };
  }
  const ok = mainDatabase.status === 'up' && dataDatabase.status === 'up';
  return { status: ok ? 'ok' : 'error', details: { mainDatabase, dataDatabase } };
}
