/**
 * `docker build` without Docker: replays a Dockerfile's stages in a temporary folder. Each stage gets a folder that
 * stands for its filesystem root; FROM an image starts it empty (the image's Node is the one running this, which the
 * test holds to the Dockerfile's NODE_VERSION), FROM an earlier stage starts it as a copy of that stage. COPY takes
 * from the build context only what .dockerignore admits (a source it leaves out fails, as the build would) or from
 * an earlier stage's folder; WORKDIR and ENV apply as in Docker; a RUN whose commands are all npm or node runs as
 * written, in the stage's working folder with its ENV. Any other RUN (apt-get into the base image, chown for a user
 * this machine lacks) is skipped only when the caller gives a reason for it, and throws otherwise.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  type Instruction,
  parseCopy,
  parseDockerfile,
  parseEnv,
  parseExecForm,
} from '#tests/helpers/dockerfile.js';
import { contextFiles, parseDockerignore } from '#tests/helpers/dockerignore.js';

export interface ReplayOptions {
  /** The build context: the folder holding the Dockerfile and .dockerignore. */
  context: string;
  /** An empty folder for the stages' filesystems. */
  workDir: string;
  /** The environment RUN steps start from (PATH to the Node, HOME with the npm cache, npm settings). */
  runEnv: Record<string, string>;
  /** Why a RUN that is not npm or node may be skipped; null when it may not. */
  skipReason(command: string): string | null;
}

export interface ReplayedStep {
  stage: string;
  line: number;
  command: string;
  /** Null when it ran. */
  skipped: string | null;
  ms: number;
  output: string;
}

export interface ReplayedImage {
  /** The folder standing for the image's filesystem root. */
  root: string;
  /** The image's WORKDIR, inside `root`. */
  workDir: string;
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[] | null;
  steps: ReplayedStep[];
  /** The Dockerfile's global ARGs (NODE_VERSION). */
  args: Record<string, string>;
}

interface StageState {
  root: string;
  workDir: string;
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[] | null;
}

const REPLAYED = /^(npm|node)\s/;

/** Runs `command` with sh, as a shell-form RUN does; rejects with its output when it fails. */
function run(command: string, cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`RUN ${command} exited with ${code}:\n${output}`)),
    );
  });
}

/**
 * `cp -a`, links and modes kept: a stage's node_modules is some ten thousand files, which coreutils copies in about
 * two seconds and fs.cp in several times that.
 */
async function copyTree(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(to, { recursive: true });
  await run(`cp -a "${from}/." "${to}/"`, '/', { PATH: '/usr/bin:/bin' });
}

/** A path of the stage's filesystem inside its folder. */
const inStage = (state: StageState, absolute: string) => path.join(state.root, absolute);

/** Where a COPY puts `source`: into a `/`-ended destination by its base name, else at the destination. */
function target(state: StageState, source: string, destination: string, sourceIsDir: boolean): string {
  const absolute = path.posix.resolve(state.workDir, destination);
  if (sourceIsDir || !destination.endsWith('/')) return inStage(state, absolute);
  return inStage(state, path.posix.join(absolute, path.posix.basename(source)));
}

async function copy(
  instruction: Instruction,
  state: StageState,
  stages: Map<string, StageState>,
  context: { root: string; files: string[] },
): Promise<void> {
  const { from, sources, destination } = parseCopy(instruction);
  for (const source of sources) {
    if (from !== null) {
      const stage = stages.get(from);
      if (!stage) throw new Error(`line ${instruction.line}: COPY --from=${from}: no such stage`);
      const origin = inStage(stage, source);
      const isDir = fs.statSync(origin).isDirectory();
      const to = target(state, source, destination, isDir);
      if (isDir) await copyTree(origin, to);
      else await fs.promises.copyFile(origin, to);
      continue;
    }
    const clean = path.posix.normalize(source).replace(/\/$/, '');
    const inside = context.files.filter((file) => file.startsWith(`${clean}/`));
    const isDir = inside.length > 0;
    if (!isDir && !context.files.includes(clean)) {
      throw new Error(`line ${instruction.line}: COPY ${source}: not in the build context (.dockerignore)`);
    }
    for (const file of isDir ? inside : [clean]) {
      const to = isDir
        ? path.join(target(state, source, destination, true), file.slice(clean.length + 1))
        : target(state, source, destination, false);
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      await fs.promises.copyFile(path.join(context.root, file), to);
    }
  }
}

export async function replayDockerfile(options: ReplayOptions): Promise<ReplayedImage> {
  const read = (file: string) => fs.readFileSync(path.join(options.context, file), 'utf8');
  const dockerfile = parseDockerfile(read('Dockerfile'));
  const context = {
    root: options.context,
    files: contextFiles(options.context, parseDockerignore(read('.dockerignore'))),
  };
  const stages = new Map<string, StageState>();
  const steps: ReplayedStep[] = [];
  let state: StageState | null = null;
  for (const [index, stage] of dockerfile.stages.entries()) {
    const label = stage.name ?? `stage ${index}`;
    const root = path.join(options.workDir, `${index}-${stage.name ?? 'image'}`);
    const base = stages.get(stage.base);
    if (base) await copyTree(base.root, root);
    else await fs.promises.mkdir(root, { recursive: true });
    state = base
      ? { ...base, root, env: { ...base.env } }
      : { root, workDir: '/', env: {}, cmd: [], healthcheck: null };
    for (const instruction of stage.instructions) {
      switch (instruction.keyword) {
        case 'WORKDIR':
          state.workDir = path.posix.resolve(state.workDir, instruction.args);
          await fs.promises.mkdir(inStage(state, state.workDir), { recursive: true });
          break;
        case 'ENV':
          Object.assign(state.env, parseEnv(instruction));
          break;
        case 'COPY':
          await copy(instruction, state, stages, context);
          break;
        case 'RUN': {
          const command = instruction.args;
          const replayed = command.split(/\s*&&\s*/).every((part) => REPLAYED.test(part));
          const skipped = replayed ? null : options.skipReason(command);
          if (!replayed && skipped === null) {
            throw new Error(`line ${instruction.line}: no way to replay RUN ${command}`);
          }
          const started = Date.now();
          const output = replayed
            ? await run(command, inStage(state, state.workDir), { ...options.runEnv, ...state.env })
            : '';
          steps.push({
            stage: label,
            line: instruction.line,
            command,
            skipped,
            ms: Date.now() - started,
            output,
          });
          break;
        }
        case 'CMD':
          state.cmd = parseExecForm(instruction);
          break;
        case 'HEALTHCHECK':
          state.healthcheck = parseExecForm(instruction);
          break;
        case 'USER':
        case 'EXPOSE':
          // Who runs it and what it publishes: the container's business, not the filesystem's.
          break;
        default:
          throw new Error(`line ${instruction.line}: the replay does not know ${instruction.keyword}`);
      }
    }
    if (stage.name) stages.set(stage.name, state);
  }
  if (!state) throw new Error('the Dockerfile has no stage');
  return { ...state, steps, args: dockerfile.args };
}
