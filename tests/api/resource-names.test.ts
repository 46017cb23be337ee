/**
 * Resource names (API keys and sessions now) refuse control characters, line and paragraph separators and bidi
 * overrides anywhere in the name with 400 VALIDATION_FAILED naming the field, on create and on update, and store
 * nothing; surrounding spaces are trimmed before the length bounds apply.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type ApiResponse,
  sessionName,
  startTestGateway,
  type TestGateway,
} from '#tests/helpers/test-gateway.js';

/** Names that would forge log lines, recolour a terminal or reorder what a reader sees. */
const FORGING_NAMES: [string, string][] = [
  ['an ANSI escape and a forged line', '\u001b[31mops\r\n2025-01-01 INFO admin key created'],
  ['a line feed', 'first\nsecond'],
  ['a trailing carriage return', 'trailing return\r'],
  ['a tab', 'tab\tname'],
  ['a BEL (C0 control)', 'bell\u0007name'],
  ['DEL', 'del\u007fname'],
  ['a C1 control (NEL)', 'next\u0085line'],
  ['a C1 CSI', 'csi\u009b31mname'],
  ['a line separator', 'line\u2028separator'],
  ['a paragraph separator', 'para\u2029separator'],
  ['a right-to-left override', 'invoice\u202egnp.exe'],
  ['a bidi isolate', 'isolate\u2066name\u2069'],
];

function expectNameRefused(res: ApiResponse<any>, name: string): void {
  expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  expect(res.body.details).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ path: 'body.name', message: expect.stringContaining('control') }),
    ]),
  );
  // The refusal itself never echoes the raw characters back (the names are ASCII around them).
  const raw = [...name].filter((c) => (c.codePointAt(0) ?? 0) < 0x20 || (c.codePointAt(0) ?? 0) >= 0x7f);
  expect(raw.length).toBeGreaterThan(0);
  for (const c of raw) expect(res.text).not.toContain(c);
}

describe('resource names', () => {
  let gw: TestGateway;
  const keyNames = async () =>
    (await gw.request<{ name: string }[]>('GET', '/api/auth/api-keys')).body.map((k) => k.name).sort();
  const sessionNames = async () =>
    (await gw.request<{ name: string }[]>('GET', '/api/sessions')).body.map((s) => s.name).sort();

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw.close();
  });

  it.each(FORGING_NAMES)('an API key name with %s is refused on create', async (_label, name) => {
    const before = await keyNames();
    expectNameRefused(await gw.request('POST', '/api/auth/api-keys', { body: { name } }), name);
    expect(await keyNames()).toEqual(before);
  });

  it.each(FORGING_NAMES)('an API key name with %s is refused on update', async (_label, name) => {
    const { id } = await gw.createKey({ name: 'clean name' });
    expectNameRefused(await gw.request('PUT', `/api/auth/api-keys/${id}`, { body: { name } }), name);
    expect((await gw.request('GET', `/api/auth/api-keys/${id}`)).body.name).toBe('clean name');
  });

  it.each(FORGING_NAMES)('a session name with %s is refused on create', async (_label, name) => {
    const before = await sessionNames();
    expectNameRefused(await gw.request('POST', '/api/sessions', { body: { name } }), name);
    expect(await sessionNames()).toEqual(before);
  });

  it('trims surrounding spaces from names, then applies the length bounds', async () => {
    const key = await gw.request('POST', '/api/auth/api-keys', { body: { name: '  padded key  ' } });
    expect([key.status, key.body.name]).toEqual([201, 'padded key']);
    const renamed = await gw.request('PUT', `/api/auth/api-keys/${key.body.id}`, {
      body: { name: ' renamed key ' },
    });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'renamed key']);
    const short = await gw.request('POST', '/api/auth/api-keys', { body: { name: '   ab   ' } });
    expect([short.status, short.body.code]).toEqual([400, 'VALIDATION_FAILED']);

    const name = sessionName('trim');
    const session = await gw.request('POST', '/api/sessions', { body: { name: ` ${name} ` } });
    expect([session.status, session.body.name]).toEqual([201, name]);
  });

  it('accepts names in other scripts, with accents and emoji', async () => {
    for (const name of ['Équipe support', 'مفتاح الدعم', '客服密钥', 'ops 🚀 key']) {
      const res = await gw.request('POST', '/api/auth/api-keys', { body: { name } });
      expect([name, res.status, res.body.name]).toEqual([name, 201, name]);
    }
  });
});
