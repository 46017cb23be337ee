/**
 * The host image, built and started without Docker (no Docker engine runs on the development machines or CI): the
 * Dockerfile's stages replayed in a temporary folder (./replay-dockerfile.ts) — the build context as .dockerignore
 * resolves it, the production install with its postinstall (the patches), esbuild and the bundle — and the runtime
 * stage's result started with its own CMD and ENV, in the image's aws mode, against DynamoDB Local, the SQS emulator
 * and s3rver, until /healthz answers and the image's HEALTHCHECK passes. The image's node_modules is a production
 * install of a copy of the tree, so this is also the proof that such an install runs the host. npm installs off the
 * local cache where it can (prefer-offline), which keeps the replay near half a minute on two otherwise idle cores.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repositoryPatches, withoutHunks } from '#tests/helpers/unified-diff.js';
import { type ReplayedImage, replayDockerfile } from './replay-dockerfile.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Emulators {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  s3Endpoint: string;
  mediaBucket: string;
  queues: { commandQueueUrl: string; standardQueueUrl: string };
  stop(): Promise<void>;
}
interface EmulatorsScript {
  freePort(): Promise<number>;
  startEmulators(options: { tablePrefix: string; env: Record<string, string> }): Promise<Emulators>;
}

/** The RUN steps that are not npm or node, and why skipping them changes nothing the replay checks. */
const SKIPPED: [RegExp, string][] = [
  [
    /^apt-get update && apt-get install\b/,
    'Debian packages of the base image (python3 and make are on this machine)',
  ],
  [
    /^mkdir -p \/data && chown node:node \/data$/,
    "the node user's /data folder (DATA_DIR here is a temporary one)",
  ],
];

const TABLE_PREFIX = `image-${process.pid}-`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-image-'));
const nodeBin = path.dirname(process.execPath);
let image: ReplayedImage;
let emulators: Emulators | null = null;
let freePort: () => Promise<number>;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  const script = fileURLToPath(new URL('../../scripts/offline-emulators.mjs', import.meta.url));
  const offline = (await import(script)) as EmulatorsScript;
  freePort = offline.freePort;
  // The emulators start while npm installs: the replay is most of the wait.
  const [replayed, started] = await Promise.allSettled([
    replayDockerfile({
      context: ROOT,
      workDir: path.join(work, 'stages'),
      runEnv: {
        PATH: `${nodeBin}:${process.env.PATH ?? ''}`,
        HOME: process.env.HOME ?? os.homedir(),
        TMPDIR: os.tmpdir(),
        // node-gyp's headers: those of the Node running this (scripts/use-node.sh sets it; the user npmrc may not).
        ...(process.env.npm_config_nodedir ? { npm_config_nodedir: process.env.npm_config_nodedir } : {}),
        // The registry's certificate authorities where the machine names its own bundle (a TLS-inspecting proxy in
        // front of the registry): the test run's NODE_EXTRA_CA_CERTS is the simulator's, so without this npm's
        // fetch of a manifest the cache lacks (an optional dependency of a dev tool) fails its TLS check and retries
        // for over a minute before giving up on it.
        ...(process.env.SSL_CERT_FILE ? { npm_config_cafile: process.env.SSL_CERT_FILE } : {}),
        npm_config_prefer_offline: 'true',
        npm_config_update_notifier: 'false',
      },
      skipReason: (command) => SKIPPED.find(([pattern]) => pattern.test(command))?.[1] ?? null,
    }),
    offline.startEmulators({ tablePrefix: TABLE_PREFIX, env: {} }),
  ]);
  if (started.status === 'fulfilled') emulators = started.value;
  if (replayed.status === 'rejected') throw replayed.reason;
  if (started.status === 'rejected') throw started.reason;
  image = replayed.value;
}, 240_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await emulators?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}, 30_000);

/**
 * What the ECS task definition gives the container (docs/aws.md "The host container"), the emulators standing in; a
 * NODE_ID of its own, so that /healthz shows which host answers.
 */
async function containerEnv(): Promise<Record<string, string>> {
  if (!emulators) throw new Error('no emulators');
  const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
  // A port free now: other test runs on this machine take ports too.
  const hostPort = await freePort();
  return {
    PATH: `${nodeBin}:/usr/bin:/bin`,
    ...image.env,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    DYNAMODB_ENDPOINT: emulators.dynamodbEndpoint,
    SQS_ENDPOINT: emulators.sqsEndpoint,
    S3_ENDPOINT: emulators.s3Endpoint,
    TABLE_PREFIX,
    COMMAND_QUEUE_URL: emulators.queues.commandQueueUrl,
    WEBHOOK_QUEUE_URL: emulators.queues.standardQueueUrl,
    S3_BUCKET: emulators.mediaBucket,
    HOST_RPC_TOKEN: randomBytes(32).toString('hex'),
    BOOTSTRAP_ADMIN_KEY: `wg_${randomBytes(32).toString('hex')}`,
    // This machine is shared: a free port instead of the image's 2786, loopback instead of every interface, a
    // temporary folder for the /data volume.
    HOST_PORT: String(hostPort),
    BIND_HOST: '127.0.0.1',
    NODE_URL: `http://127.0.0.1:${hostPort}`,
    DATA_DIR: dataDir,
    NODE_ID: `image-${randomBytes(4).toString('hex')}`,
  };
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** Runs argv in the image's working folder, as the container would. */
function start(argv: string[], env: Record<string, string>): Started {
  const [command, ...args] = argv;
  if (!command) throw new Error('empty command');
  const child = spawn(command, args, {
    cwd: path.join(image.root, image.workDir),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exit };
}

/** The exit status, or 'still running' once `ms` have passed (then the process is killed). */
async function exitWithin(started: Started, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still running'>((resolve) => {
    timer = setTimeout(resolve, ms, 'still running');
  });
  const outcome = await Promise.race([started.exit, late]);
  clearTimeout(timer);
  if (outcome === 'still running') started.child.kill('SIGKILL');
  return outcome;
}

/** The node id /healthz answers on the host's port with; null when nothing answers 200 there. */
async function healthz(env: Record<string, string>): Promise<string | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${env.HOST_PORT}/healthz`, {
      signal: AbortSignal.timeout(2000),
    });
    const body = (await response.json()) as { nodeId?: string };
    return response.status === 200 ? (body.nodeId ?? null) : null;
  } catch {
    return null;
  }
}

/** Sizes of every file under `folder`, symbolic links as links. */
function bytesUnder(folder: string): number {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .reduce((sum, entry) => sum + fs.lstatSync(path.join(entry.parentPath, entry.name)).size, 0);
}

describe('the host image, replayed', () => {
  it('builds on the Node the Dockerfile names, running its npm and node steps, skipping only what it says why', () => {
    expect(process.versions.node).toBe(image.args.NODE_VERSION);
    const ran = image.steps.filter((step) => step.skipped === null);
    expect(ran.map((step) => `${step.stage}: ${step.command.split(' ').slice(0, 3).join(' ')}`)).toEqual([
      'deps: npm install --omit=dev',
      'build: npm install --no-save',
      'build: node scripts/build.mjs',
    ]);
    expect(image.steps.filter((step) => step.skipped !== null).map((step) => step.skipped)).toEqual(
      SKIPPED.map(([, reason]) => reason),
    );
  });

  it("applies the patches of what runs in the production install, and skips the dev tool's", () => {
    const install = image.steps.find((step) => step.stage === 'deps' && step.skipped === null)?.output ?? '';
    const lines = install.split('\n').map((line) => line.trim());
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(lines).toContain(`patch-package ${manifest.dependencies['patch-package']}`);
    for (const name of repositoryPatches().keys()) {
      const [, pkg, version] = /^patches\/(.+)\+([^+]+?)(\.dev)?\.patch$/.exec(name) ?? [];
      const shown = `${pkg?.replace('+', '/')}@${version} ✔`;
      expect(lines).toContain(name.endsWith('.dev.patch') ? `Skipping dev-only ${shown}` : shown);
    }
  });

  it('ships production dependencies only, libsignal among them', () => {
    const modules = path.join(image.root, image.workDir, 'node_modules');
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([key, entry]) => key !== '' && entry.dev === true)
      .map(([key]) => key);
    expect(devOnly.length).toBeGreaterThan(500);
    expect(devOnly.filter((key) => fs.existsSync(path.join(modules, '..', key)))).toEqual([]);
    for (const pkg of ['@whiskeysockets/baileys', 'libsignal', 'better-sqlite3', 'patch-package']) {
      expect(fs.existsSync(path.join(modules, pkg, 'package.json'))).toBe(true);
    }
    // About 100 MB of files when measured (127 MB on disk, docs/aws.md "The host container"); dev tools would add
    // hundreds.
    expect(bytesUnder(modules) / 1e6).toBeLessThan(130);
  });

  it("starts the host with the image's CMD and ENV until /healthz answers and its HEALTHCHECK passes", async () => {
    const env = await containerEnv();
    const host = start(image.cmd, env);
    const deadline = Date.now() + 60_000;
    const up = /Waygate host \S+ is up \(aws mode\)/;
    // /healthz answers once the RPC server listens, a moment before the start is over and says so.
    while ((await healthz(env)) !== env.NODE_ID || !up.test(host.output())) {
      if (host.child.exitCode !== null) throw new Error(`the host exited:\n${host.output()}`);
      if (Date.now() > deadline) throw new Error(`no /healthz after 60 s:\n${host.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(image.healthcheck).not.toBeNull();
    expect(await start(image.healthcheck ?? [], env).exit).toBe(0);
    host.child.kill('SIGTERM');
    expect(await host.exit).toBe(0);
  }, 90_000);

  it('refuses to start without a patch of what runs, with one message naming it, from either entry point', async () => {
    const patch = [...repositoryPatches()].find(([name]) => name.startsWith('patches/libsignal+'));
    const cipher = patch?.[1].find((file) => file.file === 'src/session_cipher.js');
    if (!patch || !cipher) throw new Error('no libsignal patch of src/session_cipher.js');
    const file = path.join(image.root, image.workDir, 'node_modules/libsignal/src/session_cipher.js');
    fs.writeFileSync(file, withoutHunks(fs.readFileSync(file, 'utf8'), cipher.hunks));
    const env = await containerEnv();
    // The image's CMD (the aws host), and `npm start`'s bundle (the embedded gateway) on the same node_modules.
    const runs = [
      start(image.cmd, env),
      start(['node', 'dist/embedded/main.js'], { ...env, DEPLOYMENT_MODE: 'embedded', PORT: '0' }),
    ];
    for (const run of runs) {
      expect(await exitWithin(run, 20_000)).toBe(1);
      expect(run.output()).toContain('Waygate cannot run the Baileys engine');
      expect(run.output()).toContain(`${patch[0]}: libsignal's session copy`);
      // The message alone: no stack trace under it.
      expect(run.output()).not.toMatch(/^\s+at /m);
    }
  });
});
