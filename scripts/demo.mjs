// `npm run demo`: the gateway (real Baileys engine) against the local WhatsApp network simulator, and the steps
// (scripts/demo-steps.mjs) that link a session and send a message each way with curl, to paste into bash. Ctrl-C
// stops both.
//
// Env: SIM_PORT (7080), PORT (2785), DATA_DIR (./data-demo), BIND_HOST (127.0.0.1), LOG_LEVEL (warn, the
// gateway's), SIM_LOG (warn, the simulator's). The simulator keeps its state in memory: after a restart of the demo,
// sessions linked earlier are logged out by the new simulator and need a new scan.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { demoSteps } from './demo-steps.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SIM_PORT = process.env.SIM_PORT || '7080';
const PORT = process.env.PORT || '2785';
const DATA_DIR = path.resolve(process.env.DATA_DIR || './data-demo');
const BIND_HOST = process.env.BIND_HOST || '127.0.0.1';

const children = [];
let stopping = false;

/** Pipes a child's output to ours line by line, each line prefixed; answers the stdout line reader. */
function forward(child, label) {
  const prefix = process.stdout.isTTY ? `\x1b[2m[${label}]\x1b[0m ` : `[${label}] `;
  const out = readline.createInterface({ input: child.stdout });
  readline.createInterface({ input: child.stderr }).on('line', (line) => {
    process.stderr.write(`${prefix}${line}\n`);
  });
  return out;
}

/** Starts a child in its own process group (Ctrl-C reaches only us; we stop the children in order). */
function start(label, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.label = label;
  children.push(child);
  child.once('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`\n${label} exited (${signal ?? code}); stopping the demo\n`);
      void stopAll(1);
    }
  });
  return child;
}

/** Waits for the first stdout line matching `pattern` (other lines are forwarded). */
function firstMatch(child, lines, pattern, prefix, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${child.label} did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let found = false;
    lines.on('line', (line) => {
      const match = found ? null : pattern.exec(line);
      if (match) {
        found = true;
        clearTimeout(timer);
        resolve(match);
      }
      process.stdout.write(`${prefix}${line}\n`);
    });
    child.once('exit', () => reject(new Error(`${child.label} exited before it was ready`)));
  });
}

function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', resolve);
  });
}

/** Stops the gateway first (it closes its connections), then the simulator; SIGKILL after 15 s each. */
async function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited(child);
    clearTimeout(timer);
  }
  process.exit(code);
}

process.on('SIGINT', () => {
  if (stopping) {
    // A second Ctrl-C: do not wait any longer.
    for (const child of children) child.kill('SIGKILL');
    process.exit(130);
  }
  process.stdout.write('\nStopping the gateway and the simulator… (Ctrl-C again to kill them)\n');
  void stopAll(0);
});
process.on('SIGTERM', () => void stopAll(0));
// Whatever happens to us, the children must not outlive the demo.
process.on('exit', () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed (${code})`)),
    );
  });
}

function howTo({ gatewayUrl, adminUrl, keyFile }) {
  return `
────────────────────────────────────────────────────────────────────────────────
 Waygate demo: the gateway (Baileys engine) against the local WhatsApp simulator
   gateway    ${gatewayUrl}   (API reference: ${gatewayUrl}/api/docs)
   simulator  ${adminUrl}   (admin API: tests/wa-sim/README.md)
   admin key  ${keyFile}
────────────────────────────────────────────────────────────────────────────────
 In another terminal, paste this whole block into bash (curl and node only):

${demoSteps({ gatewayUrl, adminUrl, keyFile })}

 Ctrl-C stops both. Gateway data: ${DATA_DIR} (delete it to start afresh). The simulator forgets
 every link when it stops: sessions linked in an earlier run come back logged out; start them and scan again.
────────────────────────────────────────────────────────────────────────────────
`;
}

try {
  const sim = start('simulator', ['--import', 'tsx', 'tests/wa-sim/main.ts'], {
    SIM_PORT,
    SIM_LOG: process.env.SIM_LOG || 'warn',
  });
  const simLines = forward(sim, 'sim');
  const [simLine] = await firstMatch(sim, simLines, /^\{.*"wsUrl".*\}$/, '[sim] ', 20_000);
  const { wsUrl, adminUrl, rootKey } = JSON.parse(simLine);

  process.stdout.write('Building the gateway…\n');
  await run(['scripts/build.mjs']);

  fs.mkdirSync(DATA_DIR, { recursive: true });
  const gateway = start('gateway', ['dist/embedded/main.js'], {
    ENGINE: 'baileys',
    WA_WEBSOCKET_URL: wsUrl,
    WA_SERVER_ROOT_KEY: rootKey,
    DATA_DIR,
    PORT,
    BIND_HOST,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  });
  const gatewayLines = forward(gateway, 'gateway');
  const [, gatewayUrl] = await firstMatch(
    gateway,
    gatewayLines,
    /listening on (http:\/\/\S+)/,
    '[gateway] ',
    30_000,
  );
  // The banner is followed by the key lines; let them through before the how-to.
  await new Promise((resolve) => setTimeout(resolve, 200));
  process.stdout.write(howTo({ gatewayUrl, adminUrl, keyFile: path.join(DATA_DIR, '.api-key') }));
} catch (error) {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : error}\n`);
  await stopAll(1);
}
