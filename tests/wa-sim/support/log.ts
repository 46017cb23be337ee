/** The simulator's logger: quiet by default, node traces at `debug` (`SIM_LOG=debug`). Writes to stderr. */

/** Level names, quietest first. */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
/** One of `LOG_LEVELS`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A leveled logger; `debug` callers check `debugEnabled` first so node strings are only built when traced. */
export interface SimLogger {
  readonly level: LogLevel;
  readonly debugEnabled: boolean;
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  debug(message: string, detail?: unknown): void;
}

const rank: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Reads a level name, falling back when it is missing or unknown. */
export function parseLogLevel(value: string | undefined, fallback: LogLevel): LogLevel {
  const match = LOG_LEVELS.find((level) => level === value);
  return match ?? fallback;
}

/** Builds a logger that prints lines at or above `level` through `write` (stderr by default). */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): SimLogger {
  const emit = (at: Exclude<LogLevel, 'silent'>, message: string, detail: unknown): void => {
    if (rank[at] > rank[level]) return;
    const suffix = detail === undefined ? '' : ` ${formatDetail(detail)}`;
    write(`[wa-sim] ${at} ${message}${suffix}`);
  };
  return {
    level,
    debugEnabled: rank.debug <= rank[level],
    error: (message, detail) => emit('error', message, detail),
    warn: (message, detail) => emit('warn', message, detail),
    info: (message, detail) => emit('info', message, detail),
    debug: (message, detail) => emit('debug', message, detail),
  };
}

function formatDetail(detail: unknown): string {
  if (detail instanceof Error) return detail.stack ?? detail.message;
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
