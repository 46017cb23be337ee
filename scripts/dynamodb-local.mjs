/**
 * DynamoDB Local for tests and manual use. The emulator (a Java jar) ships inside the npm package
 * amplify-dynamodb-simulator, so it is fetched with `npm pack` (the only registry this machine reaches) into
 * node_modules/.cache/dynamodb-local/ once, then started in memory on a free port.
 *
 *   node scripts/dynamodb-local.mjs [port]   → prints the endpoint and runs until Ctrl-C
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'dynamodb-local');
const EMULATOR = path.join(CACHE, 'package', 'emulator');
const READY_TIMEOUT_MS = 30_000;

/** Attempts at `npm pack` before giving up: a clean clone's first test run fetches 56 MB from the registry. */
const PACK_ATTEMPTS = 3;

/** `npm pack` of the emulator's package into the cache, tried again after a failure; answers the tarball's name. */
function packEmulator() {
  const failures = [];
  for (let attempt = 1; attempt <= PACK_ATTEMPTS; attempt++) {
    try {
      // --prefer-offline: from npm's cache when it holds the package (the version is pinned), without first asking
      // the registry whether its metadata changed: that request stalled for about 210 s at times here, while every
      // test of a clean clone's first run waited for the emulators (1.4 s with the cache).
      const args = ['pack', PACKAGE, '--pack-destination', CACHE, '--silent', '--prefer-offline'];
      const tarball = execFileSync('npm', args, {
        cwd: CACHE,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      })
        .trim()
        .split('\n')
        .pop();
      if (tarball) return tarball;
      failures.push(`attempt ${attempt}: npm pack named no tarball`);
    } catch (error) {
      // A registry hiccup (seen once on a clean clone in CI) is worth another try; its words go in the error,
      // without Node's warning about NODE_EXTRA_CA_CERTS, which the test run sets and which hid them once.
      const words = String(error.stderr || error.message)
        .split('\n')
        .filter((line) => !/Warning: Ignoring extra certs|--trace-warnings/.test(line))
        .join('\n')
        .trim();
      failures.push(`attempt ${attempt}: ${words.slice(-1500) || error.message}`);
    }
    if (attempt < PACK_ATTEMPTS) execFileSync('sleep', [String(2 * attempt)]);
  }
  throw new Error(`npm pack ${PACKAGE} failed:\n${failures.join('\n')}`);
}

/** Fetches and unpacks the emulator unless a previous run left it in the cache. Answers its folder. */
export function ensureEmulator() {
  if (fs.existsSync(path.join(EMULATOR, 'DynamoDBLocal.jar'))) return EMULATOR;
  fs.mkdirSync(CACHE, { recursive: true });
  const tarball = packEmulator();
  execFileSync('tar', ['xzf', path.join(CACHE, tarball), '-C', CACHE, 'package/emulator']);
  // The 56 MB tarball is not needed once extracted.
  fs.rmSync(path.join(CACHE, tarball), { force: true });
  return EMULATOR;
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** True once an HTTP request to the endpoint gets any answer (the emulator answers 400 to a bare GET). */
async function answers(endpoint) {
  try {
    await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts DynamoDB Local in memory. `port` 0 (the default) picks a free port. Answers the endpoint and `stop()`,
 * which kills the whole process group so no JVM outlives the caller.
 */
export async function startDynamoDbLocal({ port = 0 } = {}) {
  const dir = ensureEmulator();
  const chosen = port === 0 ? await freePort() : port;
  const java = spawn(
    'java',
    [
      '-Djava.library.path=./DynamoDBLocal_lib',
      '-jar',
      'DynamoDBLocal.jar',
      '-port',
      String(chosen),
      '-inMemory',
      '-disableTelemetry',
    ],
    { cwd: dir, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  java.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  let exited = false;
  java.on('exit', () => {
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${chosen}`;
  const stop = async () => {
    const pid = java.pid;
    if (exited || pid === undefined) return;
    const gone = new Promise((resolve) => java.once('exit', resolve));
    try {
      // Negative pid: the whole group (detached: true made java its leader), never our own group.
      process.kill(-pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
    }, 3000);
    await gone;
    clearTimeout(timer);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers(endpoint))) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`DynamoDB Local did not start on ${endpoint}: ${stderr.trim() || 'timeout'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  java.stderr.removeAllListeners('data');
  java.stderr.resume();
  return { endpoint, stop };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const local = await startDynamoDbLocal({ port: Number(process.argv[2] ?? 0) });
  console.log(local.endpoint);
  const shutdown = () => {
    local.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
