/** A logger that keeps every line it is given, so tests can assert on what was logged and at which level. */
import type { Logger } from '#shared/ports/logger.port.js';

/** One logged line: its level, the fields object (empty for a bare message) and the message. */
export interface LogLine {
  level: string;
  fields: Record<string, unknown>;
  message: string | undefined;
}

/** A logger (with every level enabled) that appends each line to `lines`. */
export function capturingLogger(lines: LogLine[]): Logger {
  const at =
    (level: string) =>
    (first: object | string, message?: string): void => {
      lines.push(
        typeof first === 'string'
          ? { level, fields: {}, message: first }
          : { level, fields: first as Record<string, unknown>, message },
      );
    };
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
    isLevelEnabled: () => true,
  };
  return logger;
}
