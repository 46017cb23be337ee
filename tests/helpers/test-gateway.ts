/**
 * Starts a real embedded gateway (SQLite files in a temp dir, real HTTP on a free port, the test engine) for API
 * tests, with a small typed client. Restart keeps the data dir and the test network, as a process restart would.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestNetwork } from '../../host/engines/test/test-network.js';
import { type RunningGateway, startGateway } from '../../host/gateway.js';
import { loadEnv } from '../../shared/config/env.js';
import { silentLogger } from '../../shared/ports/logger.port.js';

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

let counter = 0;

/** A unique valid session name. */
export function sessionName(prefix = 's'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function startTestGateway(
  overrides: Record<string, string> = {},
  reuse?: { dataDir: string; network: TestNetwork; adminKey: string },
): Promise<TestGateway> {
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-api-'));
  const network = reuse?.network ?? new TestNetwork();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    BIND_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ENGINE: 'test',
    RATE_LIMIT_MAX: '1000000',
    ENGINE_TEARDOWN_TIMEOUT_MS: '300',
    API_KEY_USAGE_FLUSH_MS: '50',
    ...overrides,
  };
  const gateway = await startGateway({ env: loadEnv(env), testNetwork: network, logger: silentLogger });
  const adminKey =
    gateway.bootstrap.status === 'created'
      ? gateway.bootstrap.plaintext
      : (reuse?.adminKey ?? fs.readFileSync(path.join(dataDir, '.api-key'), 'utf8').trim());

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
    const response = await fetch(`${gateway.url}${urlPath}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  };

  const self: TestGateway = {
    url: gateway.url,
    adminKey,
    dataDir,
    network,
    gateway,
    env,
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
    async restart(more = {}) {
      await gateway.close();
      return startTestGateway({ ...overrides, ...more }, { dataDir, network, adminKey });
    },
    close: () => gateway.close(),
  };
  return self;
}

/** Polls `probe` until it answers a truthy value or the timeout passes. */
export async function waitFor<T>(
  probe: () => Promise<T> | T,
  timeoutMs = 5000,
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
  timeoutMs = 5000,
): Promise<SessionBody> {
  return waitFor(async () => {
    const res = await gw.request<SessionBody>('GET', `/api/sessions/${sessionId}`);
    return res.body?.status === status ? res.body : null;
  }, timeoutMs);
}
