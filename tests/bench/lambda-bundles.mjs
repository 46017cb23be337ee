// Size and cold start of every Lambda as it is deployed. `sls package` builds the artefacts (serverless-esbuild with
// serverless.yml's options and plugins) into a temporary folder; each function's zip is unpacked, its source map
// checked for packages that must never reach a Lambda (better-sqlite3, Baileys, libsignal), then `runs` fresh node
// processes each import the bundle and invoke it once with a real API Gateway v2 event (a scheduled event for the
// maintenance function, an empty SQS batch for the webhook delivery function; lambda-events.mjs), with the function's
// environment from the CloudFormation template pointed at DynamoDB Local and the SQS emulator
// (scripts/offline-stack.mjs). "init" is import + first invoke, measured in the child; "initCpu" the CPU time that
// took; "process" is the child's time from its own start (node boot included) to the answer. The MCP function is
// measured again as a stack with mcpEnabled runs it (VARIANTS): an agent's first request, and a cold tools listing.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { startEmulators } from '#scripts/offline-emulators.mjs';
import { EVENTS, eventFor, PLANNED, seedAdminKey, VARIANTS } from './lambda-events.mjs';
import { ROOT } from './support.mjs';

const RUNS = Number(process.env.BENCH_LAMBDA_RUNS ?? 10);
const FORBIDDEN =
  /node_modules\/(better-sqlite3|@whiskeysockets|libsignal|@signalapp|whatsapp-web\.js|puppeteer)/;
/** The entries of a zip file (stored or deflated), by name. Enough for serverless-esbuild's archives. */
function unzip(file) {
  const buffer = fs.readFileSync(file);
  let end = buffer.length - 22;
  while (end >= 0 && buffer.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file}: not a zip file`);
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    const method = buffer.readUInt16LE(at + 10);
    const compressed = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extra = buffer.readUInt16LE(at + 30);
    const comment = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(dataAt, dataAt + compressed);
    entries.set(name, method === 0 ? data : zlib.inflateRawSync(data));
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** `sls package` into `dir`; answers its wall time. */
async function packageArtefacts(dir) {
  const started = performance.now();
  await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'node_modules/osls/bin/serverless.js'), 'package', '--stage', 'bench', '--package', dir],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        WAYGATE_ESBUILD_WORK_FOLDER: `.esbuild-bench-${process.pid}`,
        SLS_TELEMETRY_DISABLED: '1',
        SLS_NOTIFICATIONS_MODE: 'off',
      },
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return performance.now() - started;
}

/** Each function of the template: its name, zip, handler file and environment (CloudFormation values as given). */
function functionsOf(dir) {
  const template = JSON.parse(
    fs.readFileSync(path.join(dir, 'cloudformation-template-update-stack.json'), 'utf8'),
  );
  const functions = [];
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const props = resource.Properties;
    const name = logicalId.replace(/LambdaFunction$/, '');
    const key = name.charAt(0).toLowerCase() + name.slice(1);
    functions.push({
      name: key,
      zip: path.join(dir, path.basename(props.Code.S3Key)),
      handler: props.Handler,
      environment: props.Environment?.Variables ?? {},
    });
  }
  return functions;
}

const CHILD = `
const [bundle, eventJson] = process.argv.slice(2);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const mod = await import(bundle);
const t1 = performance.now();
const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000,
  callbackWaitsForEmptyEventLoop: false };
const result = await mod.handler(JSON.parse(eventJson), context);
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ importMs: t1 - t0, invokeMs: t2 - t1, processMs: t2,
  cpuMs: (cpu.user + cpu.system) / 1000,
  status: result && typeof result === 'object' && 'statusCode' in result ? result.statusCode : 'ok' }));
process.exit(0);
`;

function runChild(childFile, bundle, event, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childFile, pathToFileURL(bundle).href, JSON.stringify(event)], {
      cwd: path.dirname(bundle),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(out));
      } catch (error) {
        reject(new Error(`${path.basename(bundle)}: ${error.message}\n${out}\n${err.slice(-4000)}`));
      }
    });
  });
}

const round = (n) => Math.round(n * 10) / 10;
function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: round(at(0.5)), p90: round(at(0.9)), min: round(sorted[0]), max: round(sorted.at(-1)) };
}

/**
 * The function's environment from the template, its CloudFormation values (queue URLs, the RPC token secret)
 * replaced by the emulators', plus what only a local run sets (endpoints, dummy credentials).
 */
function localEnvironment(declared, emulators) {
  const replaced = {
    TABLE_PREFIX: emulators.tablePrefix,
    COMMAND_QUEUE_URL: emulators.queues.commandQueueUrl,
    WEBHOOK_QUEUE_URL: emulators.queues.standardQueueUrl,
    S3_BUCKET: emulators.mediaBucket,
    HOST_RPC_TOKEN: 'bench-host-rpc-token-0123456789abcdef0123',
  };
  const env = {};
  for (const [key, value] of Object.entries(declared)) {
    if (key in replaced) env[key] = replaced[key];
    else if (typeof value === 'string') env[key] = value;
    else throw new Error(`${key}: a CloudFormation value the bench does not know how to replace`);
  }
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    DYNAMODB_ENDPOINT: emulators.dynamodbEndpoint,
    SQS_ENDPOINT: emulators.sqsEndpoint,
    S3_ENDPOINT: emulators.s3Endpoint,
    ...env,
    LOG_LEVEL: 'silent',
  };
}

export async function lambdaBundles({ runs = RUNS } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-lambda-bench-'));
  const artefacts = path.join(work, 'package');
  const emulators = await startEmulators({ tablePrefix: 'bench-lambda-' });
  try {
    const packageMs = await packageArtefacts(artefacts);
    const childFile = path.join(work, 'cold-start.mjs');
    fs.writeFileSync(childFile, CHILD);
    const adminKey = `wg_${randomBytes(32).toString('hex')}`;
    await seedAdminKey(emulators, adminKey);
    // Unpack every function first, then take the samples round-robin (one process per function in turn, and one
    // bare node process), so a burst of load on the machine weighs on every function alike.
    const prepared = functionsOf(artefacts).map((fn) => {
      const entries = unzip(fn.zip);
      const handlerFile = `${fn.handler.slice(0, fn.handler.lastIndexOf('.'))}.mjs`;
      const code = entries.get(handlerFile);
      if (!code) throw new Error(`${fn.name}: ${handlerFile} is not in ${path.basename(fn.zip)}`);
      const map = entries.get(`${handlerFile}.map`);
      const sources = map ? JSON.parse(map.toString('utf8')).sources : [];
      const forbidden = [
        ...new Set(sources.filter((s) => FORBIDDEN.test(s)).map((s) => s.match(FORBIDDEN)[1])),
      ];
      const dir = path.join(work, fn.name);
      for (const [name, data] of entries) {
        fs.mkdirSync(path.join(dir, path.dirname(name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), data);
      }
      const spec = EVENTS[fn.name];
      if (!spec) throw new Error(`no bench event for function ${fn.name}: add one to EVENTS`);
      const env = localEnvironment(fn.environment, emulators);
      return { ...fn, code, map, forbidden, spec, env, bundle: path.join(dir, handlerFile), samples: [] };
    });
    for (const [name, { of, env, ...spec }] of Object.entries(VARIANTS)) {
      const base = prepared.find((fn) => fn.name === of);
      if (!base) throw new Error(`variant ${name}: no function ${of}`);
      prepared.push({ ...base, name, spec, env: { ...base.env, ...env }, samples: [] });
    }
    // The same clock for an empty process: node's own boot, which processMs includes.
    const baseline = [];
    for (let i = 0; i < runs; i++) {
      for (const fn of prepared) {
        fn.samples.push(await runChild(childFile, fn.bundle, eventFor(fn.spec, adminKey), fn.env));
      }
      const { stdout } = await promisify(execFile)(process.execPath, [
        '-e',
        'process.stdout.write(String(performance.now()))',
      ]);
      baseline.push(Number(stdout));
    }
    const functions = {};
    for (const { name, spec, samples, code, map, zip, forbidden } of prepared) {
      const statuses = [...new Set(samples.map((s) => s.status))];
      if (spec.expect !== undefined && (statuses.length !== 1 || statuses[0] !== spec.expect)) {
        throw new Error(`${name}: expected ${spec.expect}, got ${statuses.join(', ')}`);
      }
      functions[name] = {
        event: spec.scheduled
          ? 'scheduled'
          : spec.sqs
            ? 'empty SQS batch'
            : `${spec.method} ${spec.path}${spec.body ? ` ${JSON.parse(spec.body).method}` : ''} → ${statuses[0]}`,
        bytes: code.length,
        mapBytes: map?.length ?? 0,
        zipBytes: fs.statSync(zip).size,
        bundleGzipBytes: zlib.gzipSync(code, { level: 9 }).length,
        forbiddenPackages: forbidden,
        initMs: stats(samples.map((s) => s.importMs + s.invokeMs)),
        importMs: stats(samples.map((s) => s.importMs)).median,
        firstInvokeMs: stats(samples.map((s) => s.invokeMs)).median,
        processMs: stats(samples.map((s) => s.processMs)).median,
        // The CPU the init took in its process (both threads of V8's compiler and GC included): on a loaded machine
        // it moves far less than the wall time, which also counts the time other processes held the cores.
        initCpuMs: stats(samples.map((s) => s.cpuMs)).median,
      };
    }
    return {
      runs,
      node: process.version,
      packageMs: Math.round(packageMs),
      bareNodeProcessMs: stats(baseline).median,
      functions,
      absent: PLANNED,
    };
  } finally {
    await emulators.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(await lambdaBundles(), null, 2)}\n`);
}
