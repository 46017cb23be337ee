/** The logging surface the core needs; pino satisfies it. Keeps the core free of a logging library. */
export interface LogFn {
  (obj: object, msg?: string): void;
  (msg: string): void;
}

export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
  isLevelEnabled(level: 'debug' | 'info' | 'warn' | 'error'): boolean;
  /** The level, settable at run time (pino's); absent on a logger without levels. */
  level?: string;
}

/** A logger that drops everything (unit tests). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
  isLevelEnabled: () => false,
};
