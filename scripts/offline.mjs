/**
 * `npm run offline`: the aws mode on this machine without Docker (see scripts/offline-stack.mjs): DynamoDB Local,
 * the SQS emulator, `serverless offline` with serverless.yml's functions on PORT (default 2785), and one host.
 * Configuration comes from the environment as in a deployment: BOOTSTRAP_ADMIN_KEY (generated and printed when
 * unset), ENGINE (default baileys), TABLE_PREFIX, HOST_PORT, plus any gateway variable (RATE_LIMIT_MAX, …).
 * OFFLINE_DATA_DIR keeps the host's files (default: a temporary folder removed on exit); OFFLINE_VERBOSE=1 prints
 * what the children print. Prints one line with the API URL once everything answers; Ctrl-C stops it all.
 */
import { startOffline } from './offline-stack.mjs';

const verbose = process.env.OFFLINE_VERBOSE === '1' || process.env.OFFLINE_VERBOSE === 'true';
const generatedKey = !process.env.BOOTSTRAP_ADMIN_KEY;

let stack;
let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  await stack?.stop();
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal} received, stopping the offline stack…\n`);
    void stop(0);
  });
}

try {
  stack = await startOffline({
    ...(process.env.OFFLINE_DATA_DIR ? { dataDir: process.env.OFFLINE_DATA_DIR } : {}),
    onOutput: verbose ? (name, line) => process.stderr.write(`[${name}] ${line}\n`) : undefined,
  });
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  await stop(1);
}
if (generatedKey) {
  process.stderr.write(`No BOOTSTRAP_ADMIN_KEY was set; this run's admin key: ${stack.apiKey}\n`);
}
process.stdout.write(`Waygate (aws mode, offline) API: ${stack.url}/api  (host ${stack.hostUrl})\n`);
// A child that dies takes the stack down with it: nothing would answer for it.
for (const [name, child] of Object.entries(stack.children)) {
  child.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`${name} exited (${signal ?? code}); stopping the offline stack\n`);
    void stop(1);
  });
}
