/**
 * POST /mcp with a second client, independent of the SDK's (tests/api/mcp.test.ts): the MCP Inspector's command line
 * (`mcp-inspector --cli`, a dev dependency), run as a child process as an operator runs it against a gateway. It
 * initializes and lists the tool set of each mode, calls a read tool whose result is the REST answer, is refused a
 * write tool with a viewer key (in-band: it exits 5, tool_is_error) and is refused without a key (401: it exits 3,
 * auth_required; --stored-auth-only keeps it from starting an interactive OAuth login). Each run starts a node process
 * (about a second, several under load): one gateway per mode, one run per check.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { embeddedOnly, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';
import { READ_TOOLS, WRITE_TOOLS } from './mcp-support.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const INSPECTOR = fs.realpathSync(path.join(ROOT, 'node_modules/.bin/mcp-inspector'));

interface ListedTool {
  name: string;
  annotations?: { readOnlyHint?: boolean };
}

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: unknown;
}

interface Run {
  code: number;
  /** What it printed on stdout (the result) or stderr (the error), parsed: --format json prints one object. */
  out: { result?: { tools?: ListedTool[] } & Partial<ToolResult>; error?: { code: string; message: string } };
}

/** One run of the Inspector's command line against the gateway's /mcp, with `key` in X-API-Key when given. */
async function inspect(gw: TestGateway, home: string, key: string | null, args: string[]): Promise<Run> {
  const target = [`${gw.url}/mcp`, '--transport', 'http', '--format', 'json', '--stored-auth-only'];
  const header = key === null ? [] : ['--header', `X-API-Key: ${key}`];
  // A home of its own: the Inspector keeps a catalog and client settings under ~/.mcp-inspector.
  const options = { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', HOME: home }, timeout: 25_000 };
  const parse = (text = '') => {
    const line = text.split('\n').findLast((candidate) => candidate.startsWith('{'));
    return (line ? JSON.parse(line) : {}) as Run['out'];
  };
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [INSPECTOR, '--cli', ...target, ...header, ...args],
      options,
    );
    return { code: 0, out: parse(stdout) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, out: { ...parse(failed.stdout), ...parse(failed.stderr) } };
  }
}

const listTools = (gw: TestGateway, home: string) =>
  inspect(gw, home, gw.adminKey, ['--method', 'tools/list']);

const callTool = (gw: TestGateway, home: string, key: string, name: string, args: Record<string, unknown>) =>
  inspect(gw, home, key, [
    '--method',
    'tools/call',
    '--tool-name',
    name,
    '--tool-args-json',
    JSON.stringify(args),
  ]);

const toolsOf = (run: Run) => run.out.result?.tools ?? [];
const namesOf = (run: Run) =>
  toolsOf(run)
    .map((tool) => tool.name)
    .sort();

/**
 * A gateway with MCP_ENABLED (and `env`) and one session of it, for the tests of the describe block that calls it.
 * One at a time: a gateway installs the functions' dependencies of the process.
 */
function gatewayFor(env: Record<string, string> = {}): { gw: TestGateway; sessionId: string } {
  const state = {} as { gw: TestGateway; sessionId: string };
  beforeAll(async () => {
    state.gw = await startTestGateway({ MCP_ENABLED: 'true', ...env });
    state.sessionId = (await state.gw.createSession()).id;
  });
  afterAll(() => state.gw.close());
  return state;
}

embeddedOnly(
  describe,
  'a second client of the same /mcp handler, which mcp.test.ts runs in the aws mode with the SDK client; here it would add about 11 s (five node starts, two aws gateways)',
)('POST /mcp through the MCP Inspector CLI', () => {
  let home: string;
  beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-inspector-'));
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  describe('read-only by default', () => {
    const readOnly = gatewayFor();
    it('initializes and lists exactly the read tools, each marked read-only', async () => {
      const run = await listTools(readOnly.gw, home);
      expect(run.code).toBe(0);
      expect(namesOf(run)).toEqual(READ_TOOLS);
      expect(toolsOf(run).every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    });

    it('calls SessionFindOne, whose result is the REST answer', async () => {
      const { gw, sessionId } = readOnly;
      const run = await callTool(gw, home, gw.adminKey, 'SessionFindOne', { sessionId });
      const rest = await gw.request('GET', `/api/sessions/${sessionId}`);
      expect(run.code).toBe(0);
      expect(run.out.result?.isError).toBeFalsy();
      expect(run.out.result?.structuredContent).toEqual(rest.body);
      expect(JSON.parse(run.out.result?.content?.[0]?.text ?? 'null')).toEqual(rest.body);
    });

    it('is refused without a key (401, Missing API key)', async () => {
      const run = await inspect(readOnly.gw, home, null, ['--method', 'tools/list']);
      expect(run.code).toBe(3);
      expect(run.out.error?.code).toBe('auth_required');
      expect(run.out.error?.message).toContain('Missing API key');
    });
  });

  describe('with MCP_READONLY=false', () => {
    const full = gatewayFor({ MCP_READONLY: 'false' });
    it('lists every tool', async () => {
      const run = await listTools(full.gw, home);
      expect(run.code).toBe(0);
      expect(namesOf(run)).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    });

    it('is refused a write tool with a viewer key, in-band (FORBIDDEN_ROLE)', async () => {
      const { gw, sessionId } = full;
      const { key } = await gw.createKey({ name: 'viewer', role: 'viewer' });
      const text = { sessionId, chatId: '15557770001@c.us', text: 'nope' };
      const run = await callTool(gw, home, key, 'MessageSendText', text);
      expect(run.code).toBe(5);
      expect(run.out.error?.code).toBe('tool_is_error');
      expect(run.out.result?.isError).toBe(true);
      expect(JSON.parse(run.out.result?.content?.[0]?.text ?? '{}')).toMatchObject({
        code: 'FORBIDDEN_ROLE',
      });
    });
  });
});
