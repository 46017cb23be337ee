/**
 * What the entry points of the built gateway (dist/embedded/main.js, dist/host/main.js) do before they load the rest:
 *
 * - Node's compile cache on (`module.enableCompileCache`: its directory is NODE_COMPILE_CACHE, else node-compile-cache
 *   under the OS's temp folder). The modules of a start are then compiled from V8 code cached by the previous start,
 *   not from source: about a sixth of a start's CPU. It must be on before those modules load, hence the entries'
 *   dynamic import of everything else.
 * - Stack traces mapped to the TypeScript sources on demand. `--enable-source-maps` reads and indexes the map of every
 *   bundle file as it loads, and pino's caller lookup then parses the largest (together about 0.2 s of CPU per
 *   start); here a file's map is read the first time a stack trace shows a frame of that file, usually never.
 */
import fs from 'node:fs';
import nodeModule, { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Node ≥ 22.1 has it; the @types/node this project compiles against does not declare it yet. */
const { enableCompileCache } = nodeModule as typeof nodeModule & {
  enableCompileCache?: (directory?: string) => unknown;
};

export function prepareProcess(): void {
  enableCompileCache?.();
  mapStackTracesOnDemand();
}

/** Each bundle file's source map, read on first need (null: the file has none). */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  let known = maps.get(file);
  if (known !== undefined) return known;
  known = null;
  try {
    const mapFile = `${file.startsWith('file:') ? fileURLToPath(file) : file}.map`;
    const payload = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as ConstructorParameters<
      typeof SourceMap
    >[0];
    // Its sources are relative to the map's folder: made absolute paths, as frames show them (a plugin's virtual
    // module, `builtin-cjs:node:fs`, stays as it is).
    const base = pathToFileURL(mapFile);
    payload.sources = payload.sources.map((source) => {
      const url = new URL(source, base);
      return url.protocol === 'file:' ? fileURLToPath(url) : source;
    });
    known = new SourceMap(payload);
  } catch {
    // No map beside the file, or not one that parses: its frames stay as they are.
  }
  maps.set(file, known);
  return known;
}

/** One frame as V8 writes it, its place in a bundle file replaced by the place in the source it was built from. */
function formatFrame(frame: NodeJS.CallSite): string {
  const text = frame.toString();
  const file = frame.getFileName();
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  if (!file || line === null || column === null || !file.endsWith('.js') || file.includes('/node_modules/')) {
    return text;
  }
  const entry = mapOf(file)?.findEntry(line - 1, column - 1);
  if (!entry || !('originalSource' in entry)) return text;
  const where = `${file}:${line}:${column}`;
  const mapped = `${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  const at = text.lastIndexOf(where);
  return at === -1 ? text : `${text.slice(0, at)}${mapped}${text.slice(at + where.length)}`;
}

function header(error: Error): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return '<error>';
  }
}

/** Installs the mapping, unless Node maps stack traces itself already (--enable-source-maps, tsx). */
export function mapStackTracesOnDemand(): void {
  if (process.sourceMapsEnabled) return;
  Error.prepareStackTrace = (error, frames) =>
    `${header(error)}${frames.map((frame) => `\n    at ${formatFrame(frame)}`).join('')}`;
}
