/**
 * libsignal prints every session it opens or closes (whole session objects) through `console.info`/`warn`,
 * from the simulator's devices and from Baileys alike. This filter drops those lines and passes the rest.
 * It patches the global console: the gateway logs through pino, so only this library chatter is affected.
 */

const CHATTER = [
  'Opening session',
  'Closing session',
  'Removing old closed session',
  'Closing open session in favor of incoming prekey bundle',
  'Closing stale open session',
  'Session already closed',
  'Session already open',
  'Migrating session to',
];

function isChatter(args: readonly unknown[]): boolean {
  const first = args[0];
  return typeof first === 'string' && CHATTER.some((prefix) => first.startsWith(prefix));
}

let quieted: (() => void) | null = null;

/**
 * Filters libsignal's session logging out of `console.info` and `console.warn`; returns an undo function. Calling
 * it again while it is in place changes nothing (and returns the same undo).
 */
export function quietLibsignal(): () => void {
  if (quieted) return quieted;
  const { info, warn } = console;
  console.info = (...args: unknown[]) => {
    if (!isChatter(args)) info.apply(console, args);
  };
  console.warn = (...args: unknown[]) => {
    if (!isChatter(args)) warn.apply(console, args);
  };
  quieted = () => {
    console.info = info;
    console.warn = warn;
    quieted = null;
  };
  return quieted;
}
