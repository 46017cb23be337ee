/**
 * One Node line, declared, tested and shipped: .nvmrc pins the exact version CI runs (scripts/use-node.sh puts it
 * on PATH), and package.json's engines, the Docker image, the Lambda runtime and every esbuild target agree with
 * it. use-node.sh itself is run against fake Node binaries: which Node it chooses, and that a failure while
 * sourced leaves the caller's shell running.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MINIMUM_NODE_MAJOR, unsupportedNodeMessage } from '#host/node-runtime.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pinned = read('.nvmrc').trim();
const major = pinned.split('.')[0];

describe('the Node version', () => {
  it('is pinned exactly in .nvmrc', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is the line package.json declares in engines', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const declared = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(engines);
    expect(declared?.[1]).toBe(major);
    expect(Number(declared?.[2])).toBeLessThanOrEqual(Number(pinned.split('.')[1]));
  });

  it('is the exact version every Docker stage is built on', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain(`ARG NODE_VERSION=${pinned}\n`);
    // A stage starts from the Node image or from an earlier stage (FROM deps AS build), which started from it.
    const bases = (dockerfile.match(/^FROM \S+/gm) ?? []).map((line) => line.slice('FROM '.length));
    const stages = (dockerfile.match(/^FROM \S+ AS (\S+)$/gm) ?? []).map((line) => line.split(' ').at(-1));
    expect(bases[0]).toBe(`node:\${NODE_VERSION}-bookworm-slim`);
    for (const base of bases) {
      expect([`node:\${NODE_VERSION}-bookworm-slim`, ...stages]).toContain(base);
    }
  });

  it("is the Lambda runtime and the bundles' esbuild target in serverless.yml", () => {
    const serverless = read('serverless.yml');
    expect(serverless.match(/^\s+runtime: (\S+)$/gm)?.map((line) => line.trim())).toEqual([
      `runtime: nodejs${major}.x`,
    ]);
    expect(serverless.match(/^\s+target: (\S+)$/gm)?.map((line) => line.trim())).toEqual([
      `target: node${major}`,
    ]);
  });

  it('is the esbuild target of every build script', () => {
    const files = ['scripts/build.mjs', 'scripts/offline-emulators.mjs', 'tests/bench/baileys-support.mjs'];
    const targets = files.flatMap((file) =>
      [...read(file).matchAll(/target: '(node\d+)'/g)].map((m) => m[1]),
    );
    expect(targets).toEqual(files.map(() => `node${major}`));
  });

  it('is the line below which the host entry points stop with a message instead of crashing in SQLite', () => {
    expect(String(MINIMUM_NODE_MAJOR)).toBe(major);
    expect(unsupportedNodeMessage('20.20.2')).toMatch(
      /needs Node \d+ .*this is Node 20\.20\.2.*source scripts\/use-node\.sh/s,
    );
    expect(unsupportedNodeMessage(pinned)).toBeNull();
  });

  it('is what CI switches to before it installs anything', () => {
    const ci = read('.ci/run');
    expect(ci.indexOf('\nsource scripts/use-node.sh\n')).toBeGreaterThan(0);
    expect(ci.indexOf('\nsource scripts/use-node.sh\n')).toBeLessThan(ci.indexOf('npm install'));
  });

  it('runs the npm scripts that load the gateway (start, test, demo, offline, migrations, bench)', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    for (const name of ['start', 'test', 'demo', 'offline', 'migration:run', 'migration:run:main', 'bench']) {
      expect(`${name}: ${scripts[name]}`).toMatch(new RegExp(`^${name}: scripts/use-node\\.sh `));
    }
  });
});

describe('scripts/use-node.sh', () => {
  let dir: string;
  let cached: string;

  /** A fake `node` (and anything else) in `bin`, answering `--version` with `version`. */
  const fakeNode = (bin: string, version: string) => {
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'node'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
  };
  const bash = (script: string, extraPath = '', env: Record<string, string> = {}) =>
    spawnSync('bash', ['-c', script], {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        PATH: `${path.join(dir, 'bin')}:${extraPath}/usr/bin:/bin`,
        HOME: dir,
        WAYGATE_NODE_CACHE: path.join(dir, 'cache'),
        ...env,
      },
    });
  /** What npm puts in a script's environment when it runs on the Node at `execPath`, of version `version`. */
  const underNpm = (execPath: string, version: string) => ({
    npm_config_user_agent: `npm/11.6.2 node/${version} linux x64 workspaces/false`,
    npm_node_execpath: execPath,
  });
  /** A fake `node` that also notes each time it is run. */
  const countingNode = (bin: string, version: string) => {
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'node'), `#!/bin/sh\necho run >> "${dir}/node-runs"\necho ${version}\n`, {
      mode: 0o755,
    });
  };
  const nodeRuns = () =>
    fs.existsSync(path.join(dir, 'node-runs'))
      ? fs.readFileSync(path.join(dir, 'node-runs'), 'utf8').split('\n').filter(Boolean).length
      : 0;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-use-node-'));
    const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
    cached = path.join(dir, 'cache', `node-v${pinned}-linux-${arch}`);
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('puts the cached pinned Node first on PATH, node-gyp at its headers, when PATH has another line', () => {
    fakeNode(path.join(dir, 'bin'), 'v18.20.0');
    fakeNode(path.join(cached, 'bin'), `v${pinned}`);
    const run = bash(
      'source scripts/use-node.sh && command -v node && node --version && echo "$npm_config_nodedir"',
    );
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([path.join(cached, 'bin', 'node'), `v${pinned}`, cached]);
    expect(run.stderr).toContain(`Node ${pinned}`);
  });

  it('leaves a Node of the pinned major line as it is', () => {
    fakeNode(path.join(dir, 'bin'), `v${major}.0.1`);
    const run = bash(
      `source scripts/use-node.sh && command -v node && echo "nodedir=\${npm_config_nodedir:-unset}"`,
    );
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([path.join(dir, 'bin', 'node'), 'nodedir=unset']);
  });

  it('runs one command under the pinned Node when given one', () => {
    fakeNode(path.join(dir, 'bin'), 'v20.20.2');
    fakeNode(path.join(cached, 'bin'), `v${pinned}`);
    const run = bash('scripts/use-node.sh node --version');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(`v${pinned}`);
  });

  it("under npm, takes the version of npm's own Node from npm's user agent without running it", () => {
    const bin = path.join(dir, 'bin');
    countingNode(bin, `v${major}.0.1`);
    const run = bash(
      'source scripts/use-node.sh && command -v node',
      '',
      underNpm(path.join(bin, 'node'), `v${major}.0.1`),
    );
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(path.join(bin, 'node'));
    expect(nodeRuns()).toBe(0);
  });

  it("under npm on another line, switches to the pinned Node without running npm's", () => {
    const bin = path.join(dir, 'bin');
    countingNode(bin, 'v20.20.2');
    fakeNode(path.join(cached, 'bin'), `v${pinned}`);
    const run = bash(
      'source scripts/use-node.sh && command -v node',
      '',
      underNpm(path.join(bin, 'node'), 'v20.20.2'),
    );
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(path.join(cached, 'bin', 'node'));
    expect(nodeRuns()).toBe(0);
  });

  it('asks the `node` on PATH its version when it is not the Node that runs npm', () => {
    const bin = path.join(dir, 'bin');
    countingNode(bin, 'v18.20.0');
    fakeNode(path.join(cached, 'bin'), `v${pinned}`);
    const run = bash(
      'source scripts/use-node.sh && command -v node',
      '',
      underNpm('/elsewhere/node', `v${pinned}`),
    );
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(path.join(cached, 'bin', 'node'));
    expect(nodeRuns()).toBe(1);
  });

  it('returns an error without ending the shell that sources it when the download fails', () => {
    fakeNode(path.join(dir, 'bin'), 'v20.20.2');
    // npm that cannot reach the registry
    fs.writeFileSync(path.join(dir, 'bin', 'npm'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const run = bash('source scripts/use-node.sh; echo "still here, status $?"; node --version');
    expect(run.stdout.trim().split('\n')).toEqual(['still here, status 1', 'v20.20.2']);
    expect(run.stderr).toContain(`could not fetch and run node-linux-`);
    expect(fs.readdirSync(path.join(dir, 'cache'))).toEqual([]);
  });
});
