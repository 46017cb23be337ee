/**
 * Starts a real embedded gateway (SQLite files in a temp dir, real HTTP on a free port, the test engine) for API
 * tests, with a small typed client. Restart keeps the data dir and the test network, as a process restart would.
 * In the jest project `api-aws` the same call starts the aws mode instead (offline-test-gateway.ts), so every
 * tests/api file runs against both.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { describe, it } from '@jest/globals';
import { type RunningGateway, startGateway } from '#embedded/gateway.js';
import { TestNetwork } from '#host/engines/test/test-network.js';
import { loadEnv } from '#shared/config/env.js';
import { silentLogger } from '#shared/ports/logger.port.js';
import { assertConforms } from './openapi-conformance.js';
import { watchGateway } from './stray-gateways.js';
import { TEST_DEFAULTS } from './test-defaults.mjs';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestGateway {
  url: string;
  adminKey: string;
  dataDir: string;
  network: TestNetwork;
  gateway: RunningGateway;
  env: Record<string, string>;
  request<T = any>(method: string, urlPath: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Creates a key with the admin key and answers its plaintext and id. */
  createKey(body: Record<string, unknown>): Promise<{ key: string; id: string }>;
  createSession(name?: string): Promise<{ id: string; name: string; status: string }>;
  restart(overrides?: Record<string, string>): Promise<TestGateway>;
  close(): Promise<void>;
}

// What every test gateway runs with unless a test overrides it; in plain JS, as the api-aws global setup prewarms
// serverless offline with it too (functions-pool.mjs).
export { TEST_DEFAULTS } from './test-defaults.mjs';

/**
 * Which server the API suite runs against: the embedded gateway, or the aws mode (jest project `api-aws`, whose
 * setup file sets WAYGATE_API_TARGET=offline).
 */
export const apiTarget: 'embedded' | 'offline' =
  process.env.WAYGATE_API_TARGET === 'offline' ? 'offline' : 'embedded';

/** `fn.skip` (and its `.each`) with `note` appended to every test's name, so every skip says why in the report. */
function skippedWith(fn: typeof it | typeof describe, note: string): unknown {
  const skip = fn.skip as unknown as {
    (name: string, ...rest: unknown[]): void;
    each(...table: unknown[]): (name: string, ...rest: unknown[]) => void;
  };
  const label = (name: string) => `${name} [${note}]`;
  const skipped = (name: string, ...rest: unknown[]) => skip(label(name), ...rest);
  skipped.each =
    (...table: unknown[]) =>
    (name: string, ...rest: unknown[]) =>
      skip.each(...table)(label(name), ...rest);
  return skipped;
}

/**
 * `it` or `describe` (and their `.each`) for behaviour only the embedded gateway has. Against the aws mode the tests
 * are skipped, with `reason` (why the aws mode differs) in their names, so every skip says why in the report.
 */
export function embeddedOnly(fn: typeof it, reason: string): typeof it.skip;
export function embeddedOnly(fn: typeof describe, reason: string): typeof describe.skip;
export function embeddedOnly(fn: typeof it | typeof describe, reason: string): unknown {
  return apiTarget === 'embedded' ? fn : skippedWith(fn, `embedded only: ${reason}`);
}

/**
 * `it` (and its `.each`) for behaviour that needs every request of a test on one instance of a function: serverless
 * offline (project api-offline) runs a function, as Lambda does, in as many instances as requests overlap, each with
 * its own memory. Skipped there, with `reason` in its name; api-aws runs each function's handler once, in-process.
 */
export function oneInstanceOnly(fn: typeof it, reason: string): typeof it.skip {
  const offline = process.env.WAYGATE_TEST_FUNCTIONS === 'offline';
  return (offline ? skippedWith(fn, `not under serverless offline: ${reason}`) : fn) as typeof it.skip;
}

/**
 * Where serverless offline (the aws target's stand-in for API Gateway) answers differently from API Gateway, so a
 * test of the functions' own handling cannot reach them through it.
 */
export const OFFLINE_QUIRKS = {
  jsonStringBody:
    'serverless-offline 14 JSON-parses an application/json body and hands a JSON string to the function without its ' +
    'quotes (invalid JSON); API Gateway passes the raw text',
  percentEncoding:
    "serverless-offline's HTTP server (hapi) refuses a malformed percent-escape in the path with its own 400 body " +
    'before any function runs',
} as const;

let counter = 0;

/** A unique valid session name. */
export function sessionName(prefix = 's'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** What a restart keeps, as a process restart would: the data, the WhatsApp network and the admin key. */
export interface ReuseState {
  dataDir: string;
  network: TestNetwork;
  adminKey: string;
}

/**
 * A gateway for one test file: the embedded server (jest project `api`), or the aws mode on serverless-offline with
 * an in-process host (project `api-aws`, see offline-test-gateway.ts). Both answer the same interface.
 */
export function startTestGateway(overrides: Record<string, string> = {}): Promise<TestGateway> {
  return watchGateway(
    apiTarget === 'offline'
      ? import('./offline-test-gateway.js').then(({ startOfflineTestGateway }) =>
          startOfflineTestGateway(overrides),
        )
      : startEmbeddedTestGateway(overrides),
  );
}

/**
 * The embedded gateway whatever the project's target: what a test moving data between the deployment modes starts
 * beside startTestGateway's.
 */
export function startEmbeddedGateway(overrides: Record<string, string> = {}): Promise<TestGateway> {
  return watchGateway(startEmbeddedTestGateway(overrides));
}

async function startEmbeddedTestGateway(
  overrides: Record<string, string>,
  reuse?: ReuseState,
): Promise<TestGateway> {
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-api-'));
  const network = reuse?.network ?? new TestNetwork();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    BIND_HOST: '127.0.0.1',
    ...TEST_DEFAULTS,
    ...overrides,
  };
  const gateway = await startGateway({ env: loadEnv(env), testNetwork: network, logger: silentLogger });
  const adminKey =
    gateway.bootstrap.status === 'created'
      ? gateway.bootstrap.plaintext
      : (reuse?.adminKey ?? fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim());

  return {
    ...apiClient(gateway.url, adminKey),
    url: gateway.url,
    adminKey,
    dataDir,
    network,
    gateway,
    env,
    async restart(more = {}) {
      await gateway.close();
      return startEmbeddedTestGateway({ ...overrides, ...more }, { dataDir, network, adminKey });
    },
    close: () => gateway.close(),
  };
}

/** The typed HTTP client of a gateway at `url`, acting as `adminKey` unless a request names another key. */
export function apiClient(
  url: string,
  adminKey: string,
): Pick<TestGateway, 'request' | 'createKey' | 'createSession'> {
  const request = async <T>(
    method: string,
    urlPath: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? adminKey : options.key;
    if (key !== null && !('authorization' in headers) && !('x-api-key' in headers))
      headers['x-api-key'] = key;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${url}${urlPath}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    // Every answer is held to the published document, as a validating proxy in front of the gateway would.
    assertConforms(method, urlPath, response.status, response.headers.get('content-type'), parsed);
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  };
  return {
    request,
    async createKey(body) {
      const res = await request<{ apiKey: string; id: string }>('POST', '/api/auth/api-keys', { body });
      if (res.status !== 201) throw new Error(`createKey failed: ${res.status} ${res.text}`);
      return { key: res.body.apiKey, id: res.body.id };
    },
    async createSession(name = sessionName()) {
      const res = await request<{ id: string; name: string; status: string }>('POST', '/api/sessions', {
        body: { name },
      });
      if (res.status !== 201) throw new Error(`createSession failed: ${res.status} ${res.text}`);
      return res.body;
    },
  };
}

/**
 * How long a wait for something that should happen lasts by default: a gateway answers in milliseconds, but a
 * two-core machine running two test workers, emulators and a simulator has held a QR's start past 5 s.
 */
export const WAIT_MS = 15_000;

/** Polls `probe` until it answers a truthy value or the timeout passes. */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  timeoutMs = WAIT_MS,
  intervalMs = 20,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`waitFor timed out after ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
}

/** A session as the API answers it. */
export interface SessionBody {
  id: string;
  name: string;
  status: string;
  phone: string | null;
  pushName: string | null;
  lastError: string | null;
  [field: string]: unknown;
}

/** Waits until the session reaches `status` through the API. */
export async function waitForStatus(
  gw: TestGateway,
  sessionId: string,
  status: string,
  timeoutMs = WAIT_MS,
): Promise<SessionBody> {
  return waitFor(async () => {
    const res = await gw.request<SessionBody>('GET', `/api/sessions/${sessionId}`);
    return res.body?.status === status ? res.body : null;
  }, timeoutMs);
}
