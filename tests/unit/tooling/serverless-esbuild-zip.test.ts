/**
 * Waygate's patch of serverless-esbuild (patches/serverless-esbuild+*.dev.patch, dist/utils/effect-fs.js; dev-only:
 * a production install leaves the tool out). Packaging zips each function from a scratch folder under the OS temp
 * dir that it removes afterwards, but stock serverless-esbuild removes it without `recursive`, which fails on a
 * folder and is swallowed: every `sls package` left one folder per function in /tmp (eleven per CI run). Patched,
 * the folder goes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from '@jest/globals';

let scratch = '';
afterEach(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

it('zipping a function leaves no scratch folder in the temp dir', () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'waygate-sls-zip-'));
  const tmp = path.join(scratch, 'tmp');
  fs.mkdirSync(tmp);
  const source = path.join(scratch, 'handler.mjs');
  fs.writeFileSync(source, 'export const handler = async () => ({ statusCode: 200 });\n');
  const zipPath = path.join(scratch, 'out', 'health.zip');
  // A child with its own TMPDIR, so the temp dir looked at is this test's alone.
  const script = `require('serverless-esbuild/dist/utils.js')
    .zip(${JSON.stringify(zipPath)}, [{ rootPath: ${JSON.stringify(source)}, localPath: 'functions/health/handler.mjs' }])
    .then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });`;
  const child = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, NODE_OPTIONS: '', TMPDIR: tmp },
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  expect(fs.statSync(zipPath).size).toBeGreaterThan(0);
  expect(fs.readdirSync(tmp)).toEqual([]);
});
