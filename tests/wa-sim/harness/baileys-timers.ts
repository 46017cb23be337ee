/**
 * Baileys races every pre-key upload against a `setTimeout(UPLOAD_TIMEOUT)` it never clears, so each login
 * keeps a test process alive 30 s after its sockets closed. This unrefs exactly those timers (same delay) so
 * jest exits when the tests are done; the timers still fire if the process lives on. Test-process only.
 */
import { UPLOAD_TIMEOUT } from '@whiskeysockets/baileys';

let installed = false;

/** Installs the unref wrapper around `globalThis.setTimeout` once per module context. */
export function unrefBaileysUploadTimeouts(): void {
  if (installed) return;
  installed = true;
  const original = globalThis.setTimeout;
  const wrapped = (
    callback: (...args: unknown[]) => void,
    delay?: number,
    ...args: unknown[]
  ): NodeJS.Timeout => {
    const timer = original(() => callback(...args), delay);
    if (delay === UPLOAD_TIMEOUT) timer.unref();
    return timer;
  };
  globalThis.setTimeout = Object.assign(wrapped, original) as typeof setTimeout;
}
