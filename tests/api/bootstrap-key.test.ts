/**
 * The bootstrap admin key: created on a fresh data dir and written to `<dataDir>/.api-key` (mode 0600); never a
 * second one on restart; BOOTSTRAP_ADMIN_KEY makes a given key the admin key and writes no file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { embeddedOnly, startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

const keysOf = async (gw: TestGateway, key = gw.adminKey) =>
  (
    await gw.request<{ id: string; role: string; keyPrefix: string; name: string }[]>(
      'GET',
      '/api/auth/api-keys',
      { key },
    )
  ).body;

embeddedOnly(
  describe,
  'an aws deployment injects BOOTSTRAP_ADMIN_KEY (hosts share no disk); no key is generated into DATA_DIR/.api-key',
)('generated bootstrap key', () => {
  let gw: TestGateway;
  afterAll(async () => {
    await gw.close();
  });

  it('a fresh data dir gets one admin key, written to .api-key with mode 0600', async () => {
    gw = await startTestGateway();
    expect(gw.gateway.bootstrap.status).toBe('created');
    const file = path.join(gw.dataDir, '.api-key');
    const stat = fs.statSync(file);
    expect(stat.isFile()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    const content = fs.readFileSync(file, 'utf8');
    expect(content.trim()).toMatch(/^wg_[0-9a-f]{64}$/);
    expect(content.trim()).toBe(gw.adminKey);
    // No temp file is left behind next to it.
    expect(fs.readdirSync(gw.dataDir).filter((name) => name.startsWith('.api-key'))).toEqual(['.api-key']);

    const validated = await gw.request('POST', '/api/auth/validate', { key: content.trim() });
    expect(validated.body).toMatchObject({ valid: true, role: 'admin', scoped: false });
    const keys = await keysOf(gw);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ role: 'admin', keyPrefix: gw.adminKey.slice(0, 12) });
  });

  it('a restart creates no second key and leaves the file alone', async () => {
    const file = path.join(gw.dataDir, '.api-key');
    const before = { content: fs.readFileSync(file, 'utf8'), mtime: fs.statSync(file).mtimeMs };
    await gw.createKey({ name: 'extra operator' });
    gw = await gw.restart();
    expect(gw.gateway.bootstrap.status).toBe('exists');
    const keys = await keysOf(gw);
    expect(keys).toHaveLength(2);
    expect(keys.filter((k) => k.role === 'admin')).toHaveLength(1);
    expect(fs.readFileSync(file, 'utf8')).toBe(before.content);
    expect(fs.statSync(file).mtimeMs).toBe(before.mtime);
  });

  it('a bootstrap key given later is ignored: keys already exist', async () => {
    const given = `wg_${randomBytes(32).toString('hex')}`;
    gw = await gw.restart({ BOOTSTRAP_ADMIN_KEY: given });
    expect(await keysOf(gw)).toHaveLength(2);
    expect((await gw.request('POST', '/api/auth/validate', { key: given })).status).toBe(401);
  });

  it('deleting the file does not bring a new key on the next start', async () => {
    fs.rmSync(path.join(gw.dataDir, '.api-key'));
    gw = await gw.restart();
    expect(await keysOf(gw)).toHaveLength(2);
    expect(fs.existsSync(path.join(gw.dataDir, '.api-key'))).toBe(false);
  });
});

describe('BOOTSTRAP_ADMIN_KEY on a fresh data dir', () => {
  let gw: TestGateway;
  afterAll(async () => {
    await gw.close();
  });

  it('makes the given key the only admin key and writes no file', async () => {
    const given = `wg_${randomBytes(32).toString('hex')}`;
    gw = await startTestGateway({ BOOTSTRAP_ADMIN_KEY: given });
    expect(gw.adminKey).toBe(given);
    expect(fs.existsSync(path.join(gw.dataDir, '.api-key'))).toBe(false);
    const keys = await keysOf(gw, given);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ role: 'admin', keyPrefix: given.slice(0, 12) });
    expect((await gw.request('POST', '/api/auth/validate', { key: given })).body.role).toBe('admin');

    gw = await gw.restart();
    expect(await keysOf(gw, given)).toHaveLength(1);
    expect(fs.existsSync(path.join(gw.dataDir, '.api-key'))).toBe(false);
  });
});
