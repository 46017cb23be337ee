/**
 * POST /mcp against the MCP conformance suite (@modelcontextprotocol/conformance, a dev dependency): its server
 * scenarios run by its command line against a gateway with every tool (MCP_READONLY=false), the scenarios that do not
 * apply to a stateless tools-only server listed with their reasons in mcp-conformance-baseline.yml. The suite exits
 * non-zero on a scenario that fails and is not listed, and on a listed one that passes. It has no option for request
 * headers, so a local proxy adds the key to what it sends and changes nothing else (Host and Origin included).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedOnly, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFORMANCE = fs.realpathSync(path.join(ROOT, 'node_modules/.bin/conformance'));
const BASELINE = path.join(import.meta.dirname, 'mcp-conformance-baseline.yml');

/** Every tool; the suite opens a client per scenario, more requests in a minute than the default limits allow. */
const GATEWAY_ENV = {
  MCP_ENABLED: 'true',
  MCP_READONLY: 'false',
  MCP_RATE_LIMIT_MAX: '10000',
  MCP_IP_RATE_LIMIT_MAX: '10000',
};

interface KeyProxy {
  url: string;
  close(): Promise<void>;
}

/** An HTTP proxy to `target` that adds X-API-Key to every request. */
async function keyProxy(target: string, key: string): Promise<KeyProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, 'x-api-key': key };
    const forward = http.request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The scenarios whose checks all succeeded, from the results the suite saved (`<dir>/server-<scenario>-<time>/`). */
function passedScenarios(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((entry) => {
      const checks = JSON.parse(fs.readFileSync(path.join(dir, entry, 'checks.json'), 'utf8')) as {
        status: string;
      }[];
      return checks.length > 0 && checks.every((check) => check.status === 'SUCCESS');
    })
    .map((entry) => entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, ''))
    .sort();
}

embeddedOnly(
  describe,
  'the scenarios exercise the /mcp handler both modes share, whose aws front mcp.test.ts runs with the SDK client; here it would add about 12 s',
)('POST /mcp against the MCP conformance suite', () => {
  let gw: TestGateway;
  let proxy: KeyProxy;
  let results: string;
  beforeAll(async () => {
    gw = await startTestGateway(GATEWAY_ENV);
    proxy = await keyProxy(gw.url, gw.adminKey);
    results = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-conformance-'));
  });
  afterAll(async () => {
    await proxy.close();
    await gw.close();
    fs.rmSync(results, { recursive: true, force: true });
  });

  it('passes every server scenario but those of its baseline', async () => {
    const args = ['server', '--url', `${proxy.url}/mcp`, '--expected-failures', BASELINE, '-o', results];
    const run = await promisify(execFile)(process.execPath, [CONFORMANCE, ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 90_000,
    }).then(
      () => ({ code: 0, output: '' }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? -1,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    );
    // On a failure the suite's own report shows which scenario and why.
    expect(run).toEqual({ code: 0, output: '' });
    // What a tools-only server must pass, whatever the baseline says.
    expect(passedScenarios(results)).toEqual(
      expect.arrayContaining(['ping', 'server-initialize', 'tools-list']),
    );
  }, 100_000);
});
