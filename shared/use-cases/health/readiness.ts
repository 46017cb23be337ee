import type { CoreDeps } from '#shared/use-cases/core-deps.js';

type Probe = { status: 'up' | 'down' };
export interface Readiness {
  status: 'ok' | 'error';
  details: { mainDatabase: Probe; dataDatabase: Probe };
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

/** Both stores answer a trivial query within the timeout: ok; otherwise error (served as 503). */
export async function checkReadiness(
  deps: Pick<CoreDeps, 'main' | 'data'>,
  timeoutMs = 3000,
): Promise<Readiness> {
  const [mainDatabase, dataDatabase] = await Promise.all([
    probe(() => deps.main.ping(), timeoutMs),
    probe(() => deps.data.ping(), timeoutMs),
  ]);
  const ok = mainDatabase.status === 'up' && dataDatabase.status === 'up';
  return { status: ok ? 'ok' : 'error', details: { mainDatabase, dataDatabase } };
}
