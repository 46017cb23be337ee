/** Awaiting events with timeouts, so tests never sleep for a fixed time. */
import type { BaileysEventMap, WASocket } from '@whiskeysockets/baileys';

/** Resolves with the first `event` payload for which `pick` returns a value; rejects after `timeoutMs`. */
export function waitForEvent<E extends keyof BaileysEventMap, R>(
  sock: WASocket,
  event: E,
  pick: (payload: BaileysEventMap[E]) => R | undefined | false,
  timeoutMs = 10_000,
): Promise<R> {
  return new Promise((resolve, reject) => {
    const listener = (payload: BaileysEventMap[E]): void => {
      const picked = pick(payload);
      if (picked === undefined || picked === false) return;
      clearTimeout(timer);
      sock.ev.off(event, listener);
      resolve(picked);
    };
    const timer = setTimeout(() => {
      sock.ev.off(event, listener);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${event}`));
    }, timeoutMs);
    sock.ev.on(event, listener);
  });
}

/** Polls `probe` until it returns a value (not undefined/false); rejects after `timeoutMs`. */
export async function eventually<R>(
  probe: () => Promise<R | undefined | false> | R | undefined | false,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The HTTP-like status code of a Baileys disconnect error (a Boom), if any. */
export function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('output' in error)) return undefined;
  const output = error.output;
  if (typeof output !== 'object' || output === null || !('statusCode' in output)) return undefined;
  return typeof output.statusCode === 'number' ? output.statusCode : undefined;
}
