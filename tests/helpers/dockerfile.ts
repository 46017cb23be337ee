/**
 * The Dockerfile, read as Docker reads it, for tests that stand in for `docker build` (no Docker engine runs on
 * the development machines or CI): its global ARGs, its stages and each stage's instructions, and the parts of the
 * instructions Waygate's Dockerfile uses (COPY sources and --from, ENV pairs, the exec form of CMD). Anything else
 * of the format throws rather than being read wrongly.
 */

export interface Instruction {
  /** Upper case: FROM, RUN, COPY, ... */
  keyword: string;
  /** The rest of the logical line, continuation lines joined by a space. */
  args: string;
  /** The physical line it starts on, for messages. */
  line: number;
}

export interface Stage {
  /** The `AS` name; null for an unnamed stage (the last is the image). */
  name: string | null;
  /** The image or earlier stage it starts from, ARGs expanded. */
  base: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** The ARGs declared before the first FROM, with their defaults. */
  args: Record<string, string>;
  stages: Stage[];
}

/** Logical lines: comments and blank lines dropped, a trailing backslash joining the next line. */
function logicalLines(text: string): Instruction[] {
  const result: Instruction[] = [];
  let pending: { parts: string[]; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    // Inside a continuation Docker drops comment lines and empty lines too.
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const continues = trimmed.endsWith('\\');
    const part = continues ? trimmed.slice(0, -1).trim() : trimmed;
    pending ??= { parts: [], line: index + 1 };
    pending.parts.push(part);
    if (continues) return;
    const joined = pending.parts.join(' ');
    const space = joined.search(/\s/);
    result.push({
      keyword: (space < 0 ? joined : joined.slice(0, space)).toUpperCase(),
      args: space < 0 ? '' : joined.slice(space + 1).trim(),
      line: pending.line,
    });
    pending = null;
  });
  if (pending) throw new Error('the Dockerfile ends inside a continuation');
  return result;
}

/** `${NAME}` and `$NAME` replaced by the values given (Docker's substitution, without its modifiers). */
export function expandVariables(text: string, values: Record<string, string>): string {
  return text.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (whole, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare ?? '';
      const value = values[name];
      if (value === undefined) throw new Error(`no value for ${whole}`);
      return value;
    },
  );
}

export function parseDockerfile(text: string): Dockerfile {
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of logicalLines(text)) {
    const stage = stages.at(-1);
    if (instruction.keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!from?.[1]) throw new Error(`line ${instruction.line}: FROM ${instruction.args}`);
      stages.push({ name: from[2] ?? null, base: expandVariables(from[1], args), instructions: [] });
    } else if (stage) {
      stage.instructions.push(instruction);
    } else if (instruction.keyword === 'ARG') {
      const [name, value] = instruction.args.split('=', 2);
      if (!name || value === undefined) throw new Error(`line ${instruction.line}: ARG without a default`);
      args[name] = value;
    } else {
      throw new Error(`line ${instruction.line}: ${instruction.keyword} before the first FROM`);
    }
  }
  return { args, stages };
}

/** A COPY: what it takes (`from`: an earlier stage, or null for the build context) and where it puts it. */
export interface Copy {
  from: string | null;
  sources: string[];
  destination: string;
}

export function parseCopy(instruction: Instruction): Copy {
  if (instruction.args.startsWith('[')) throw new Error(`line ${instruction.line}: COPY's JSON form`);
  const words = instruction.args.split(/\s+/);
  const flags = words.filter((word) => word.startsWith('--'));
  const paths = words.filter((word) => !word.startsWith('--'));
  const unknown = flags.filter((flag) => !/^--(from|chown|chmod)=/.test(flag));
  if (unknown.length > 0) throw new Error(`line ${instruction.line}: COPY ${unknown.join(' ')}`);
  const destination = paths.pop();
  if (!destination || paths.length === 0) throw new Error(`line ${instruction.line}: COPY without a source`);
  if (paths.some((source) => /[*?[]/.test(source))) {
    throw new Error(`line ${instruction.line}: COPY with a wildcard`);
  }
  if (paths.length > 1 && !destination.endsWith('/')) {
    throw new Error(
      `line ${instruction.line}: COPY of several sources to a destination without a trailing /`,
    );
  }
  const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length) ?? null;
  return { from, sources: paths, destination };
}

/** ENV's `key=value` pairs (values may be double-quoted). */
export function parseEnv(instruction: Instruction): Record<string, string> {
  const pairs = instruction.args.match(/\w+=(?:"[^"]*"|\S*)/g) ?? [];
  if (pairs.join(' ') !== instruction.args.split(/\s+/).join(' ')) {
    throw new Error(`line ${instruction.line}: ENV in a form other than key=value pairs`);
  }
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1).replace(/^"(.*)"$/, '$1')];
    }),
  );
}

/** The argument vector of an exec-form CMD (or of HEALTHCHECK's CMD). */
export function parseExecForm(instruction: Instruction): string[] {
  // HEALTHCHECK's options (--interval=…) come before its CMD.
  const json =
    instruction.keyword === 'HEALTHCHECK' ? instruction.args.replace(/^.*?\bCMD\s+/s, '') : instruction.args;
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed) || !parsed.every((word) => typeof word === 'string')) {
    throw new Error(`line ${instruction.line}: not an exec form`);
  }
  return parsed;
}
