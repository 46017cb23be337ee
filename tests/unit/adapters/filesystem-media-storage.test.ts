/**
 * What only the file system adapter has: files in the folder it was given, private to the gateway's user; a write
 * that fails part-way (the download stream breaks, the cap is passed) leaves neither half a file under the key nor a
 * temporary file, and keeps the previous version; and no key, however crafted, reads, writes or removes a file
 * outside the folder.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { FileSystemMediaStorage } from '#shared/adapters/filesystem/filesystem-media-storage.js';

describe('FileSystemMediaStorage', () => {
  let base: string;
  let root: string;
  let storage: FileSystemMediaStorage;
  const session = randomUUID();

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-fs-media-'));
    root = path.join(base, 'media');
    storage = new FileSystemMediaStorage({ root, maxBytes: 1000 });
  });
  afterEach(() => {
    fs.rmSync(base, { recursive: true, force: true });
  });

  const upload = (data: Uint8Array | AsyncIterable<Uint8Array>) =>
    storage.put({ sessionId: session, messageId: 'M1', mimetype: 'image/png', data });
  const sessionFiles = () => fs.readdirSync(path.join(root, session)).sort();

  it('writes <root>/<session>/<message>.<ext>, folder 0700 and file 0600', async () => {
    const stored = await upload(new Uint8Array([1, 2]));
    const file = path.join(root, session, 'M1.png');
    expect(stored.path).toBe(`${session}/M1.png`);
    expect([...fs.readFileSync(file)]).toEqual([1, 2]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(root, session)).mode & 0o777).toBe(0o700);
    expect(sessionFiles()).toEqual(['M1.png']);
  });

  it('a stream that breaks part-way leaves the previous file whole and no temporary file', async () => {
    await upload(new Uint8Array([7, 7, 7]));
    async function* broken() {
      yield new Uint8Array([1, 2, 3, 4]);
      throw new Error('connection reset');
    }
    await expect(upload(broken())).rejects.toMatchObject({ status: 503, code: 'DEPENDENCY_UNAVAILABLE' });
    expect([...fs.readFileSync(path.join(root, session, 'M1.png'))]).toEqual([7, 7, 7]);
    expect(sessionFiles()).toEqual(['M1.png']);
  });

  it('a file over the cap leaves no temporary file behind', async () => {
    async function* large() {
      for (let i = 0; i < 5; i++) yield new Uint8Array(300);
    }
    await expect(upload(large())).rejects.toMatchObject({ status: 413, code: 'MEDIA_TOO_LARGE' });
    expect(sessionFiles()).toEqual([]);
  });

  it('never reads, writes or removes outside its folder, whatever the key', async () => {
    const outside = path.join(base, 'secret.png');
    fs.writeFileSync(outside, 'secret');
    fs.mkdirSync(path.join(base, session), { recursive: true });
    const beside = path.join(base, session, 'M1.png');
    fs.writeFileSync(beside, 'beside');
    const keys = [
      '../secret.png',
      `${session}/../../secret.png`,
      `../${session}/M1.png`,
      outside,
      `${session}/M1.png/../../../secret.png`,
      `${session}/%2e%2e/secret.png`,
    ];
    for (const key of keys) {
      await expect(storage.get(key)).rejects.toMatchObject({ status: 400, code: 'MEDIA_KEY_INVALID' });
      await expect(storage.delete(key)).rejects.toMatchObject({ status: 400, code: 'MEDIA_KEY_INVALID' });
    }
    for (const sessionId of ['..', '../..', `${session}/..`]) {
      await expect(storage.deleteBySession(sessionId)).rejects.toMatchObject({ code: 'MEDIA_KEY_INVALID' });
      await expect(
        storage.put({ sessionId, messageId: 'M1', mimetype: 'image/png', data: new Uint8Array(1) }),
      ).rejects.toMatchObject({ code: 'MEDIA_KEY_INVALID' });
    }
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret');
    expect(fs.readFileSync(beside, 'utf8')).toBe('beside');
    expect(fs.readdirSync(base).sort()).toEqual([session, 'secret.png'].sort());
  });

  it('deleteBySession removes the folder with any leftover temporary file, counting only stored files', async () => {
    await upload(new Uint8Array([1]));
    fs.writeFileSync(path.join(root, session, '.M2.png.abc.tmp'), 'partial');
    expect(await storage.deleteBySession(session)).toBe(1);
    expect(fs.existsSync(path.join(root, session))).toBe(false);
  });
});
